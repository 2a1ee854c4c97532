import type { DestroyOptions } from 'pixi.js';

/**
 * How a container leaving the screen for good is destroyed: with its children and their Graphics'
 * geometry. pixi's `destroy({ children: true })` does not free a Graphics' own context (its
 * vertices, uvs and indices, kept as plain JS arrays): the renderer's GraphicsContextSystem holds
 * it until pixi's GC finds it unused for a minute, so each rebuilt hand, button row or card sheet
 * stayed in the heap (the card atlas's 53 drawn cards alone, 0.6 MB; issue 31). No Graphics here
 * shares its context with another, so destroying the context with it is safe.
 */
export const DISPOSE: DestroyOptions = { children: true, context: true };
