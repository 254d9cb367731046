// Behaviour shared by every page: collapsing nested fields, copy buttons, the search shortcut and the
// version switcher. No inline scripts, so pages work under `script-src 'self'`.

for (const button of document.querySelectorAll<HTMLButtonElement>('button[data-toggle]')) {
  button.addEventListener('click', () => {
    const path = button.dataset.toggle ?? '';
    const open = button.getAttribute('aria-expanded') !== 'true';
    button.setAttribute('aria-expanded', String(open));
    button.setAttribute('aria-label', `${open ? 'Collapse' : 'Expand'} ${path}`);
    button.textContent = open ? '−' : '+';
    const table = button.closest('table');
    if (!table) return;
    for (const row of table.querySelectorAll<HTMLElement>('tr[data-field]')) {
      const field = row.dataset.field ?? '';
      if (below(field, path)) {
        // Opening a parent shows only rows whose own ancestors are open too.
        row.classList.toggle('collapsed', !open || hiddenByAncestor(table, field, path));
      }
    }
  });
}

function below(field: string, path: string): boolean {
  return field.startsWith(`${path}.`) || field.startsWith(`${path}[]`);
}

function hiddenByAncestor(table: HTMLTableElement, field: string, opened: string): boolean {
  for (const button of table.querySelectorAll<HTMLButtonElement>(
    'button[data-toggle][aria-expanded="false"]',
  )) {
    const path = button.dataset.toggle ?? '';
    if (path !== opened && path.length > opened.length && below(field, path)) return true;
  }
  return false;
}

for (const button of document.querySelectorAll<HTMLButtonElement>('button[data-copy]')) {
  button.addEventListener('click', async () => {
    const source = document.getElementById(button.dataset.copy ?? '');
    const label = button.textContent;
    try {
      await navigator.clipboard.writeText(source?.textContent ?? '');
      button.textContent = 'Copied';
    } catch {
      button.textContent = 'Copy failed: select the text';
    }
    setTimeout(() => {
      button.textContent = label;
    }, 1500);
  });
}

// `/` (or Ctrl/⌘+K) from anywhere focuses the search box, as on most documentation sites.
const searchBox = document.querySelector<HTMLInputElement>('#site-search');
document.addEventListener('keydown', (event) => {
  if (!searchBox) return;
  const target = event.target as HTMLElement | null;
  const typing = target?.closest('input, textarea, select, [contenteditable="true"]') != null;
  const shortcut = (event.key === '/' && !typing) || (event.key === 'k' && (event.ctrlKey || event.metaKey));
  if (!shortcut) return;
  event.preventDefault();
  searchBox.focus();
  searchBox.select();
});

// The version switcher: a plain form works without script; with it, choosing a version navigates.
for (const select of document.querySelectorAll<HTMLSelectElement>('select[data-version-switch]')) {
  select.addEventListener('change', () => {
    const option = select.selectedOptions[0];
    if (option?.dataset.href) location.href = option.dataset.href;
  });
}

// A field named in the address (`#field-lines.amount`) is shown even inside a collapsed shape.
function revealField(): void {
  const id = decodeURIComponent(location.hash.slice(1));
  if (!id.startsWith('field-')) return;
  const row = document.getElementById(id);
  if (!row) return;
  row.classList.remove('collapsed');
  row.classList.add('target');
  row.scrollIntoView({ block: 'center' });
}
window.addEventListener('hashchange', revealField);
revealField();
