// Client-side search: MiniSearch (shipped as assets/minisearch.js) over the index built at build time.
import MiniSearch from './minisearch.js';

const box = document.querySelector('[data-search]');
if (box) {
  const input = box.querySelector('[data-search-input]');
  const status = box.querySelector('[data-search-status]');
  const list = box.querySelector('[data-search-results]');
  const root = new URL('../', new URL(box.dataset.index, document.baseURI));
  // The index was built with this tokenizer; loading and querying it need the same one.
  const separator = new RegExp(box.dataset.tokenize, 'u');
  const options = {
    ...JSON.parse(box.dataset.options),
    tokenize: (text) => text.split(separator).filter((term) => term !== ''),
  };
  // As searchQueryOptions in generators/docs/search.ts: a term shorter than minPrefix matches whole
  // terms only (a one-letter prefix matched nearly every event).
  const { minPrefix, ...query } = JSON.parse(box.dataset.query);
  query.prefix = (term) => term.length >= minPrefix;
  const initial = new URLSearchParams(location.search).get('q') ?? '';
  input.value = initial;

  const response = await fetch(new URL(box.dataset.index, document.baseURI));
  const index = MiniSearch.loadJSON(await response.text(), options);
  box.dataset.ready = 'true';

  const search = () => {
    const text = input.value.trim();
    list.replaceChildren();
    if (text === '') {
      status.textContent = `${index.documentCount} events indexed. Type part of an event key, a field name or a word.`;
      return;
    }
    const hits = index.search(text, query);
    status.textContent = `${hits.length} result${hits.length === 1 ? '' : 's'}`;
    for (const hit of hits.slice(0, 50)) {
      const item = document.createElement('li');
      const link = document.createElement('a');
      link.href = new URL(`events/${hit.key}/index.html`, root).href;
      link.textContent = hit.key;
      link.dataset.searchHit = hit.key;
      item.append(link);
      // The index stores a title only where it is not the key itself.
      if (hit.title) {
        const title = document.createElement('span');
        title.textContent = ` ${hit.title}`;
        item.append(title);
      }
      list.append(item);
    }
  };
  input.addEventListener('input', search);
  search();
  input.focus();
}
