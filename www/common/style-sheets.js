// Styles for shadow roots that a strict Content-Security-Policy allows: a constructed
// CSSStyleSheet adopted by the root, where a <style> element (inline style) would be refused
// without 'unsafe-inline'. One sheet per CSS text, shared by every root that adopts it.

const SHEETS = new Map();

/**
 * Adds `css` to the styles of `root` (a shadow root or the document) once; where `root` cannot adopt
 * sheets (an element not yet in a shadow root or document), puts a <style> element into it instead.
 */
export function adoptStyle(root, css) {
  if (!("adoptedStyleSheets" in root)) {
    const style = document.createElement("style");
    style.textContent = css;
    root.prepend(style);
    return;
  }
  let sheet = SHEETS.get(css);
  if (!sheet) {
    sheet = new CSSStyleSheet();
    sheet.replaceSync(css);
    SHEETS.set(css, sheet);
  }
  if (!root.adoptedStyleSheets.includes(sheet)) root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
}
