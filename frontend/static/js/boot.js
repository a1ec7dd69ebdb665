// Shared start of every page that shows the board (live board, replay): the string catalog,
// the game's content, the client scripts of the game's plugins, the icon sprite and the map.
import { setContent } from "./content.js";
import { loadSprite } from "./dom.js";
import { loadCatalog } from "./i18n.js";
import { BoardMap } from "./map.js";
import { loadPlugins } from "./registry.js";

/**
 * Load what the board needs and return the map, ready; `onInspect(areaId)` runs when a person
 * clicks an area that no decision asks for.
 */
export async function bootBoard(onInspect) {
  await loadCatalog(document.documentElement.lang || "en");
  const data = document.getElementById("game-content");
  const content = data ? JSON.parse(data.textContent || "{}") : {};
  setContent(content);
  await loadPlugins(content.scripts);
  await loadSprite();
  const map = new BoardMap(document.getElementById("map-pane"), document.getElementById("map"));
  await map.init();
  map.onInspect = onInspect;
  return map;
}
