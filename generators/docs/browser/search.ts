// Client-side search: MiniSearch (shipped as assets/minisearch.js) over the index built at build time.
// Each result names the matched fields and shows a snippet of the matched text; the arrow keys move
// through the results and Enter opens one.
import {
  indexOptions,
  indexTermsOf,
  matchedFields,
  type StoredHit,
  searchEvents,
  termsMatchedIn,
} from '../search-query.js';
import MiniSearch from './minisearch.js';

const box = document.querySelector<HTMLElement>('[data-search]');
if (box) await startSearch(box);

async function startSearch(box: HTMLElement): Promise<void> {
  const input = box.querySelector<HTMLInputElement>('[data-search-input]')!;
  const status = box.querySelector<HTMLElement>('[data-search-status]')!;
  const list = box.querySelector<HTMLOListElement>('[data-search-results]')!;
  const indexUrl = new URL(box.dataset.index ?? '', document.baseURI);
  const root = new URL('../', indexUrl);
  input.value = new URLSearchParams(location.search).get('q') ?? '';

  let index: MiniSearch;
  try {
    const response = await fetch(indexUrl);
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    index = MiniSearch.loadJSON(await response.text(), indexOptions());
  } catch (error) {
    status.textContent = `The search index could not be loaded (${(error as Error).message}). Serve the portal over HTTP: \`eventry serve\`, then /docs/.`;
    status.dataset.state = 'error';
    return;
  }
  box.dataset.ready = 'true';

  const show = () => {
    const text = input.value.trim();
    list.replaceChildren();
    if (text === '') {
      status.textContent = `${index.documentCount} events indexed. Type part of an event key, a field name or a word.`;
      return;
    }
    const hits = searchEvents(index, text);
    status.textContent = `${hits.length} result${hits.length === 1 ? '' : 's'}`;
    for (const hit of hits.slice(0, 50)) list.append(resultItem(hit, root));
  };

  let active = -1;
  const links = () => [...list.querySelectorAll<HTMLAnchorElement>('a[data-search-hit]')];
  const move = (to: number) => {
    const all = links();
    if (all.length === 0) return;
    active = (to + all.length) % all.length;
    for (const [i, link] of all.entries()) link.setAttribute('aria-current', String(i === active));
    all[active]!.focus();
  };
  box.addEventListener('keydown', (event) => {
    if (event.key === 'ArrowDown') move(active + 1);
    else if (event.key === 'ArrowUp') move(active - 1);
    else return;
    event.preventDefault();
  });
  input.addEventListener('input', () => {
    active = -1;
    show();
  });
  show();
  input.focus();
}

/** One result: the key linked, its title, the fields the query matched and a snippet of matched text. */
function resultItem(hit: StoredHit, root: URL): HTMLLIElement {
  const key = String(hit.id);
  const item = document.createElement('li');
  const link = document.createElement('a');
  link.href = new URL(`events/${key}/index.html`, root).href;
  link.textContent = key;
  link.dataset.searchHit = key;
  item.append(link);
  // The index stores a title only where it is not the key itself.
  if (hit.title) item.append(Object.assign(document.createElement('span'), { textContent: ` ${hit.title}` }));
  const fields = matchedFields(hit, (hit.paths ?? '').split(' ').filter(Boolean));
  if (fields.length > 0) {
    const matched = document.createElement('p');
    matched.className = 'hit-fields';
    matched.dataset.searchFields = fields.join(' ');
    matched.append('fields: ');
    for (const [i, field] of fields.entries()) {
      if (i > 0) matched.append(', ');
      const fieldLink = document.createElement('a');
      fieldLink.href = new URL(`events/${key}/index.html#field-${field}`, root).href;
      fieldLink.textContent = field;
      matched.append(fieldLink);
    }
    item.append(matched);
  }
  const snippet = snippetOf(hit.snippet ?? '', termsMatchedIn(hit, 'text'));
  if (snippet) item.append(snippet);
  return item;
}

/** About 20 words around the first matched term of `text`, the matched terms in `<mark>`. */
function snippetOf(text: string, terms: ReadonlySet<string>): HTMLElement | undefined {
  const words = text.split(/\s+/).filter(Boolean);
  const marked = (word: string) => indexTermsOf(word).some((term) => terms.has(term));
  const first = words.findIndex(marked);
  if (first < 0) return undefined;
  const start = Math.max(0, first - 8);
  const end = Math.min(words.length, first + 12);
  const snippet = document.createElement('p');
  snippet.className = 'hit-snippet';
  snippet.dataset.searchSnippet = '';
  if (start > 0) snippet.append('… ');
  for (const [i, word] of words.slice(start, end).entries()) {
    if (i > 0) snippet.append(' ');
    if (marked(word)) snippet.append(Object.assign(document.createElement('mark'), { textContent: word }));
    else snippet.append(word);
  }
  if (end < words.length) snippet.append(' …');
  return snippet;
}
