// text-dom.mjs: just enough of a document for the labs' panels to build their elements in Node,
// so that a test can read the words a learner reads in them (textContent). It draws nothing,
// runs no events and knows no CSS; the panels' code runs unchanged on it. Only the tests use it
// (the lab-sentence tests install it in their own processes).

class TextNode {
  constructor(text) {
    this.nodeType = 3;
    this.data = String(text);
    this.parentNode = null;
  }
  get textContent() {
    return this.data;
  }
}

class Element {
  constructor(tag) {
    this.nodeType = 1;
    this.tagName = tag.toUpperCase();
    this.childNodes = [];
    this.attributes = {};
    this.style = {};
    this.dataset = {};
    this.parentNode = null;
    this.listeners = {};
  }
  setAttribute(name, value) {
    this.attributes[name] = String(value);
    if (name.startsWith("data-")) {
      const key = name.slice(5).replace(/-(\w)/g, (_, c) => c.toUpperCase());
      this.dataset[key] = String(value);
    }
  }
  getAttribute(name) {
    return this.attributes[name] ?? null;
  }
  get id() {
    return this.getAttribute("id") ?? "";
  }
  get className() {
    return this.getAttribute("class") ?? "";
  }
  addEventListener(type, fn) {
    (this.listeners[type] ??= []).push(fn);
  }
  append(...children) {
    for (const c of children) {
      const node = typeof c === "object" && c !== null ? c : new TextNode(c);
      node.parentNode = this;
      this.childNodes.push(node);
    }
  }
  appendChild(child) {
    this.append(child);
    return child;
  }
  replaceChildren(...children) {
    this.childNodes = [];
    this.append(...children);
  }
  get children() {
    return this.childNodes.filter((c) => c.nodeType === 1);
  }
  set textContent(text) {
    this.childNodes = [];
    if (text !== "") this.append(String(text));
  }
  get textContent() {
    return this.childNodes.map((c) => c.textContent).join("");
  }
  // Selectors of one simple part: a tag, .class, #id or [attribute].
  matches(selector) {
    if (selector.startsWith(".")) return this.className.split(/\s+/).includes(selector.slice(1));
    if (selector.startsWith("#")) return this.id === selector.slice(1);
    const attr = /^\[([\w-]+)\]$/.exec(selector);
    if (attr) return attr[1] in this.attributes;
    return this.tagName === selector.toUpperCase();
  }
  querySelectorAll(selector) {
    const out = [];
    const walk = (node) => {
      for (const c of node.children) {
        if (c.matches(selector)) out.push(c);
        walk(c);
      }
    };
    walk(this);
    return out;
  }
  querySelector(selector) {
    return this.querySelectorAll(selector)[0] ?? null;
  }
}

/** Puts a document that makes these elements on globalThis (once per process). */
export function installTextDom() {
  globalThis.document ??= {
    createElement: (tag) => new Element(tag),
    createElementNS: (_, tag) => new Element(tag),
    createTextNode: (text) => new TextNode(text),
  };
}

/** The words of an element as a learner reads them: its text, spaces collapsed. */
export const textOf = (node) => (node ? node.textContent.replace(/\s+/g, " ").trim() : "");

/** Every element under a node, depth first. */
export function elementsUnder(node, out = []) {
  for (const child of node.childNodes ?? []) {
    if (child.nodeType === 1) {
      out.push(child);
      elementsUnder(child, out);
    }
  }
  return out;
}
