// The V8 flags the kiosk's pages run with: Electron's main process passes them to every renderer
// (`js-flags`, electron/kiosk-main.ts), and the benchmarks that weigh or time a page launch their
// Chromium with the same, so what they measure is what a cabinet runs.
//
// Why (issue 52 item 3, docs/benchmarks.md "A kiosk that runs for weeks"): most of what a page keeps
// after its first rounds is code V8 compiled for it, and most of what grows over a week is that code
// moving up V8's tiers. Without Sparkplug (the baseline compiler) and Maglev (the mid-tier optimiser) a
// function is interpreted until TurboFan optimises it, so a page holds neither tier's copy: the table
// and a station page measured 1.5–1.7 MB lighter at 1920×1080. The price, timed side by side before
// this was set (docs/benchmarks.md, "The pages' V8 flags"): the frames' medians the same, a dealing
// burst's p99 13–16% longer (warm code run once a round is interpreted until TurboFan takes it). On a
// cabinet whose frames miss their goal, time it again there first.
export const PAGE_V8_FLAGS: readonly string[] = ['--no-sparkplug', '--no-maglev'];
