// Behaviour shared by every page: collapsing nested fields and copy buttons. No inline scripts, so
// pages work under `script-src 'self'`.
for (const button of document.querySelectorAll('button[data-toggle]')) {
  button.addEventListener('click', () => {
    const path = button.dataset.toggle;
    const open = button.getAttribute('aria-expanded') !== 'true';
    button.setAttribute('aria-expanded', String(open));
    button.setAttribute('aria-label', `${open ? 'Collapse' : 'Expand'} ${path}`);
    button.textContent = open ? '−' : '+';
    const table = button.closest('table');
    for (const row of table.querySelectorAll('tr[data-field]')) {
      const field = row.dataset.field;
      if (field.startsWith(`${path}.`) || field.startsWith(`${path}[]`)) {
        // Opening a parent shows only rows whose own ancestors are open too.
        row.classList.toggle('collapsed', !open || hiddenByAncestor(table, field, path));
      }
    }
  });
}

function hiddenByAncestor(table, field, opened) {
  for (const button of table.querySelectorAll('button[data-toggle][aria-expanded="false"]')) {
    const path = button.dataset.toggle;
    if (
      path !== opened &&
      path.length > opened.length &&
      (field.startsWith(`${path}.`) || field.startsWith(`${path}[]`))
    )
      return true;
  }
  return false;
}

for (const button of document.querySelectorAll('button[data-copy]')) {
  button.addEventListener('click', async () => {
    const source = document.getElementById(button.dataset.copy);
    const label = button.textContent;
    try {
      await navigator.clipboard.writeText(source.textContent);
      button.textContent = 'Copied';
    } catch {
      button.textContent = 'Copy failed: select the text';
    }
    setTimeout(() => {
      button.textContent = label;
    }, 1500);
  });
}
