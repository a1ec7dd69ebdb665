// House colours and marks. The palette is colour-blind safe (Okabe & Ito), set in board.css
// as --house-<id> (fill) and --ink-<id> (text and marks drawn on that fill); houses added by
// plugins fall back to the colour their content registers.
import { rawContent } from "./content.js";

const KNOWN = new Set([
  "stark",
  "greyjoy",
  "lannister",
  "baratheon",
  "tyrell",
  "martell",
  "arryn",
  "targaryen",
]);

/** CSS custom properties that colour a token of `house`. */
export function houseVars(house) {
  const fallback = rawContent().houses?.[house]?.colour || "#9a9a9a";
  return {
    "--fill": `var(--house-${house}, ${fallback})`,
    "--ink": `var(--ink-${house}, #1d1d1d)`,
    "--stroke": "#1d1d1d",
  };
}

/** The sprite id of the house's mark (its own shape, so colour is never the only cue). */
export function markId(house) {
  return KNOWN.has(house) ? `mark-${house}` : "mark-unknown";
}
