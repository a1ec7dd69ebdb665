// Tiny DOM helpers: build HTML and SVG elements without string concatenation.

const SVG_NS = "http://www.w3.org/2000/svg";

function apply(node, attrs) {
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.setAttribute("class", value);
    else if (key === "style" && typeof value === "object") {
      for (const [prop, v] of Object.entries(value)) node.style.setProperty(prop, v);
    } else if (key.startsWith("on") && typeof value === "function") {
      node.addEventListener(key.slice(2), value);
    } else if (key === "dataset") {
      Object.assign(node.dataset, value);
    } else if (value === true) node.setAttribute(key, "");
    else node.setAttribute(key, String(value));
  }
}

function append(node, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** An HTML element: h("button", {class: "x", onclick}, "text", child...). */
export function h(tag, attrs, ...children) {
  const node = document.createElement(tag);
  apply(node, attrs);
  append(node, children);
  return node;
}

/** An SVG element. */
export function s(tag, attrs, ...children) {
  const node = document.createElementNS(SVG_NS, tag);
  apply(node, attrs);
  append(node, children);
  return node;
}

/** An inline <svg> showing sprite symbol `id`, sized by CSS. */
export function icon(id, attrs = {}) {
  const { class: cls, ...rest } = attrs;
  return s(
    "svg",
    {
      class: `w-icon ${cls || ""}`.trim(),
      viewBox: "-10 -10 20 20",
      "aria-hidden": "true",
      ...rest,
    },
    s("use", { href: `#${id}`, x: -10, y: -10, width: 20, height: 20 }),
  );
}

/** Remove every child of `node` and append `children`. */
export function fill(node, ...children) {
  node.replaceChildren();
  append(node, children);
  return node;
}

/** Inline the icon sprite once, so <use href="#id"> works everywhere on the page. */
export async function loadSprite(url = "/static/icons/sprite.svg") {
  if (document.getElementById("w-sprite")) return;
  const holder = h("div", { id: "w-sprite", hidden: true, "aria-hidden": "true" });
  document.body.prepend(holder);
  try {
    const response = await fetch(url, { credentials: "same-origin" });
    if (response.ok) holder.innerHTML = await response.text();
  } catch {
    // Icons are decoration; the board still works with text.
  }
}
