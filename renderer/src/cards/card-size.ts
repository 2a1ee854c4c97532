/** Card size in design units; the atlas draws its textures at this size times its resolution. */
export const CARD = { width: 96, height: 136 } as const;
