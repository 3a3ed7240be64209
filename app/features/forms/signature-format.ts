/**
 * A signature question's answer (issue 37): "svg:" and the drawn strokes as an SVG path in a
 * 600 × 200 box, or "typed:" and the name typed instead. Its own module, so the pages that only
 * show signatures (a shared submission) load nothing else of the form builder.
 */
export const SIGNATURE_PATH_MAX = 40_000;
export const SIGNATURE_WIDTH = 600;
export const SIGNATURE_HEIGHT = 200;
export const DRAWN_PREFIX = "svg:";
export const TYPED_PREFIX = "typed:";
