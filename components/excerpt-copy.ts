// The copy button of Go excerpts, the only script excerpts use (reading them needs none). It copies the
// upstream code — with its `// ...` elision marks, without the author's annotations. Buttons ship
// hidden, so a page without this script shows no button that does nothing. Load it as a module (no
// inline script: the site runs under a strict Content-Security-Policy) and call init().

const BUTTON = 'button[data-excerpt-copy]';
/** Lines that are not upstream code: author annotations and blank lines the author added. */
const NOT_UPSTREAM = ':not(.excerpt-note):not(.excerpt-extra)';

/** The upstream code of an excerpt figure, one source line per line. */
export function excerptText(figure: Element): string {
  const lines = figure.querySelectorAll(`pre .line${NOT_UPSTREAM}`);
  return Array.from(lines, (line) => (line.textContent ?? '').replace(/\n$/, '')).join('\n');
}

function selectCode(figure: Element): void {
  const code = figure.querySelector('pre code');
  const selection = window.getSelection();
  if (!code || !selection) return;
  const range = document.createRange();
  range.selectNodeContents(code);
  selection.removeAllRanges();
  selection.addRange(range);
}

/** Wire every copy button under `root` (idempotent: a button is wired once). */
export function init(root: ParentNode = document): void {
  for (const button of root.querySelectorAll<HTMLButtonElement>(BUTTON)) {
    if (button.dataset.excerptCopyReady !== undefined) continue;
    button.dataset.excerptCopyReady = '';
    button.hidden = false;
    const label = button.textContent ?? '';
    button.addEventListener('click', async () => {
      const figure = button.closest('figure.excerpt');
      if (!figure) return;
      try {
        await navigator.clipboard.writeText(excerptText(figure));
        button.textContent = button.dataset.copiedLabel ?? label;
        setTimeout(() => (button.textContent = label), 1500);
      } catch {
        selectCode(figure); // no clipboard access: leave the code selected for the reader to copy
      }
    });
  }
}
