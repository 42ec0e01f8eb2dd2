import type { Page } from 'playwright-core';

/** The three screen sizes every screen must be readable at (issue 28). */
export const SCREEN_SIZES = [
  { name: 'компьютер', width: 1440, height: 900 },
  { name: 'планшет', width: 1024, height: 768 },
  { name: 'телефон', width: 360, height: 740 },
] as const;

/**
 * What is unreadable on the page as it is now, one line per problem (an empty list: all fine):
 * - the page itself scrolls sideways, or an element sticks out past the window's right edge
 *   without a scroll region of its own around it;
 * - a cell, button, label, link or heading whose text does not fit in it (cut or spilling over);
 *   an element that scrolls on purpose (`overflow-x: auto | scroll`: a wide table in its own
 *   scroll region on a phone) is not counted, what is inside it is;
 * - a drop-down list whose chosen text is cut (unless its cell or label shows that text in full);
 * - a word broken across two lines inside such an element (breaks after a hyphen, a dash, a slash
 *   or a soft hyphen are
 *   allowed, as in «9:00–10:00», «н/д» or «Длитель-ность»).
 */
export function layoutProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    const width = window.innerWidth;
    const scrolling = document.scrollingElement ?? document.documentElement;
    if (scrolling.scrollWidth > width) problems.push(`страница шире окна: ${scrolling.scrollWidth} > ${width}`);

    const describe = (el: Element) => {
      const text = (el.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 40);
      const cls = typeof el.className === 'string' && el.className ? `.${el.className.trim().split(/\s+/).join('.')}` : '';
      return `${el.tagName.toLowerCase()}${cls} «${text}»`;
    };
    const visible = (el: Element) => {
      const style = getComputedStyle(el);
      if (style.visibility === 'hidden' || style.display === 'none') return false;
      const rect = el.getBoundingClientRect();
      return rect.width > 0 && rect.height > 0;
    };
    /** The element scrolls or clips sideways on its own (its content may be wider). */
    const clipsX = (el: Element) => ['auto', 'scroll', 'hidden', 'clip'].includes(getComputedStyle(el).overflowX);
    const scrollsX = (el: Element) => ['auto', 'scroll'].includes(getComputedStyle(el).overflowX);
    const insideClip = (el: Element) => {
      for (let p = el.parentElement; p && p !== document.body && p !== document.documentElement; p = p.parentElement) if (clipsX(p)) return true;
      return false;
    };

    const textual = 'th, td, button, label, a, h1, h2, h3, h4, summary, legend, [role="tab"], [role="button"]';
    const elements = [...document.querySelectorAll(textual)].filter(visible);
    for (const el of elements) {
      if (el.closest('svg, canvas, .maplibregl-map, .leaflet-container, [data-layout-free]')) continue;
      const rect = el.getBoundingClientRect();
      if (rect.right > width + 1 && !insideClip(el) && getComputedStyle(el).position !== 'fixed') {
        problems.push(`за правым краем окна (${Math.round(rect.right)} > ${width}): ${describe(el)}`);
      }
      if (!scrollsX(el) && el.clientWidth > 0 && el.scrollWidth > el.clientWidth + 1) {
        problems.push(`текст не помещается (${el.scrollWidth} > ${el.clientWidth}): ${describe(el)}`);
      }
    }

    // A drop-down list shows only its chosen option: that text must fit.
    const canvas = document.createElement('canvas').getContext('2d')!;
    for (const select of [...document.querySelectorAll('select')].filter(visible)) {
      const chosen = select.selectedOptions[0]?.textContent?.trim();
      if (!chosen) continue;
      const style = getComputedStyle(select);
      // A styleable list (appearance: base-select, on a phone) wraps the chosen name inside itself:
      // readable when the wrapped text fits the box. A name shown beside the list does not count:
      // the list itself must be readable (issue 28).
      if (style.appearance === 'base-select') {
        if (select.scrollWidth > select.clientWidth + 1 || select.scrollHeight > select.clientHeight + 1)
          problems.push(`выбор в списке не помещается (${select.clientWidth} px): «${chosen}»`);
        continue;
      }
      canvas.font = `${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
      // The arrow takes about 20 px of the box.
      const room = select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 20;
      if (canvas.measureText(chosen).width > room + 1) problems.push(`выбор в списке обрезан (${select.clientWidth} px): «${chosen}»`);
    }

    // Words broken across lines.
    let checked = 0;
    const seen = new Set<Element>();
    for (const el of elements) {
      const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode() as Text | null; node && checked < 20_000; node = walker.nextNode() as Text | null) {
        const owner = node.parentElement;
        if (!owner || seen.has(owner) || !visible(owner)) continue;
        const text = node.data;
        for (const match of text.matchAll(/\S{2,}/g)) {
          checked++;
          const lineOf = (from: number, to: number) => {
            const range = document.createRange();
            range.setStart(node, from);
            range.setEnd(node, to);
            const rects = [...range.getClientRects()].filter((r) => r.width > 0);
            return rects.length ? Math.round(rects[rects.length - 1]!.top / 3) : null;
          };
          const start = match.index!;
          const end = start + match[0].length;
          if (lineOf(start, start + 1) === lineOf(end - 1, end)) continue;
          // The word spans lines: each break must follow a hyphen, a dash, a slash or a soft hyphen.
          let bad = false;
          for (let i = start + 1; i < end && !bad; i++) {
            if (lineOf(i - 1, i) !== lineOf(i, i + 1) && !/[-‐–—/\u00AD]/.test(text[i - 1]!)) bad = true;
          }
          if (bad) {
            problems.push(`слово разорвано: «${match[0]}» в ${describe(owner)}`);
            seen.add(owner);
            break;
          }
        }
      }
    }
    // The same problem in many rows of a list: once, with the count.
    const counts = new Map<string, number>();
    for (const p of problems) counts.set(p, (counts.get(p) ?? 0) + 1);
    return [...counts].map(([p, n]) => (n > 1 ? `${p} (×${n})` : p));
  });
}

/**
 * Controls a person cannot reach without scrolling sideways (issue 41), one line each: every
 * visible button, link, field, list and `[role=button]` must lie inside the window's width and
 * inside the visible box of every ancestor that clips or scrolls sideways (a wide table in its
 * own scroll region hides its last column until scrolled: that counts). Decorative or map
 * canvases (`[data-layout-free]`, svg, maps) are left out, as in `layoutProblems`.
 */
export function unreachableControls(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    const width = window.innerWidth;
    const controls = 'button, a[href], input:not([type="hidden"]), select, textarea, [role="button"], summary';
    const describe = (el: Element) => {
      const label = el.getAttribute('aria-label') ?? (el as HTMLInputElement).placeholder ?? '';
      const text = (el.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 40) || label.slice(0, 60) || (el as HTMLInputElement).value?.slice(0, 40);
      return `${el.tagName.toLowerCase()} «${text}»`;
    };
    const clips = (el: Element) => getComputedStyle(el).overflowX !== 'visible';
    for (const el of document.querySelectorAll(controls)) {
      if (el.closest('svg, canvas, .maplibregl-map, .leaflet-container, [data-layout-free], .visually-hidden')) continue;
      const style = getComputedStyle(el);
      if (style.visibility === 'hidden' || style.display === 'none' || Number(style.opacity) === 0) continue;
      const rect = el.getBoundingClientRect();
      // A screen-reader-only control (1 px, clipped) is not for the eye.
      if (rect.width <= 1 || rect.height <= 1) continue;
      if (rect.left < -1 || rect.right > width + 1) {
        problems.push(`за краем окна (${Math.round(rect.left)}…${Math.round(rect.right)} из ${width}): ${describe(el)}`);
        continue;
      }
      for (let p = el.parentElement; p && p !== document.body && p !== document.documentElement; p = p.parentElement) {
        if (!clips(p)) continue;
        const box = p.getBoundingClientRect();
        const left = box.left + p.clientLeft;
        const right = left + p.clientWidth;
        if (rect.left < left - 1 || rect.right > right + 1) {
          const cls = typeof p.className === 'string' && p.className ? `.${p.className.trim().split(/\s+/).join('.')}` : '';
          problems.push(
            `скрыто в ${p.tagName.toLowerCase()}${cls} (${Math.round(rect.left)}…${Math.round(rect.right)} из ${Math.round(left)}…${Math.round(right)}): ${describe(el)}`,
          );
          break;
        }
      }
    }
    // The same control in many rows («Строка 7: начало»): once, the first row's line, with the count.
    const counts = new Map<string, { first: string; n: number }>();
    for (const p of problems) {
      const key = p.replace(/\d+/g, '#');
      const seen = counts.get(key);
      if (seen) seen.n++;
      else counts.set(key, { first: p, n: 1 });
    }
    return [...counts.values()].map(({ first, n }) => (n > 1 ? `${first} (×${n})` : first));
  });
}
