// WCAG 2 contrast of every visible text in the page against its background (tests/web/pages.py).
() => {
  const parse = (c) => { const m = c.match(/rgba?\(([^)]+)\)/); if (!m) return null;
    const p = m[1].split(',').map(x => parseFloat(x)); return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1]; };
  const lum = ([r, g, b]) => { const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b); };
  const blend = (top, under) => { const a = top[3]; return [0,1,2].map(i => top[i] * a + under[i] * (1 - a)).concat([1]); };
  const background = (el) => { const layers = [];
    for (let n = el; n; n = n.parentElement) { const c = parse(getComputedStyle(n).backgroundColor); if (c && c[3] > 0) { layers.push(c); if (c[3] >= 1) break; } }
    let colour = [255, 255, 255, 1]; for (let i = layers.length - 1; i >= 0; i--) colour = blend(layers[i], colour); return colour; };
  const results = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const seen = new Set();
  while (walker.nextNode()) {
    const node = walker.currentNode; const el = node.parentElement;
    if (!el || seen.has(el) || !node.textContent.trim()) continue; seen.add(el);
    if (el.closest('svg, [hidden], dialog:not([open]), noscript, script, style')) continue;
    if (el.closest('button:disabled, input:disabled')) continue;
    const style = getComputedStyle(el); const rect = el.getBoundingClientRect();
    if (style.visibility === 'hidden' || style.display === 'none' || rect.width === 0 || rect.height === 0) continue;
    const fg = parse(style.color); const bg = background(el);
    const fore = blend(fg, bg);
    const [a, b] = [lum(fore), lum(bg)]; const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
    const size = parseFloat(style.fontSize); const bold = parseInt(style.fontWeight) >= 700;
    const large = size >= 24 || (bold && size >= 18.66);
    results.push({ text: node.textContent.trim().slice(0, 40), ratio: Math.round(ratio * 100) / 100, need: large ? 3 : 4.5,
                   color: style.color, background: 'rgb(' + bg.slice(0, 3).map(Math.round).join(',') + ')' });
  }
  return results;
}
