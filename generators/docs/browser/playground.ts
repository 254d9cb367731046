// The playground: validates the payload with the event's validator module, copied unchanged from the
// group package (`pkg/<group>/events/<key>.js`): the same precompiled code the npm package ships. It
// validates as you type; each error of the platform's 400 body is listed, and a click selects its field.
// The editor (CodeMirror, assets/editor.js) loads when the reader first turns to the playground, so an
// event page stays light for those who only read it.
import { rangeOfAttr, type TextRange } from './json-path.js';
import type { ErrorItem, MountEditor, PlaygroundHost, Testing, Validate } from './playground-host.js';

const section = document.querySelector<HTMLElement>('[data-playground]');
if (section) startPlayground(section);

function startPlayground(section: HTMLElement): void {
  const input = section.querySelector<HTMLTextAreaElement>('[data-playground-input]')!;
  const result = section.querySelector<HTMLElement>('[data-playground-result]')!;
  const list = section.querySelector<HTMLOListElement>('[data-playground-errors]');
  const run = section.querySelector<HTMLButtonElement>('[data-playground-run]')!;
  const modes = [...section.querySelectorAll<HTMLInputElement>('[data-playground-mode]')];
  let validate: Validate | undefined;
  const ready = (
    import(new URL(section.dataset.module ?? '', document.baseURI).href) as Promise<{ validate: Validate }>
  ).then(
    (module) => {
      validate = module.validate;
    },
    (error: Error) => {
      show('invalid', `The validator could not be loaded: ${error.message}`);
      throw error;
    },
  );
  let select: (range: TextRange) => void = (range) => {
    input.focus();
    input.setSelectionRange(range.from, range.to);
  };

  const host: PlaygroundHost = {
    ready,
    check(text) {
      let payload: unknown;
      try {
        payload = JSON.parse(text);
      } catch (error) {
        show('invalid', `Not JSON: ${(error as Error).message}`);
        renderList([]);
        return undefined;
      }
      if (!validate) return undefined;
      const mode = modes.find((radio) => radio.checked)?.value ?? 'strict';
      const verdict = validate(payload, { mode });
      // The mode this verdict was reached in, so a reader (or a test) knows which one it shows.
      result.dataset.mode = mode;
      if (verdict.valid) {
        show('valid', 'valid');
        renderList([]);
        return [];
      }
      show('invalid', JSON.stringify(verdict.error, null, 2));
      const located = verdict.error.errors.map((item) => ({ item, range: rangeOfAttr(text, item.attr) }));
      renderList(located);
      return located;
    },
  };

  let recheck: () => void = () => {
    host.check(input.value);
  };
  let timer: ReturnType<typeof setTimeout> | undefined;
  input.addEventListener('input', () => {
    clearTimeout(timer);
    timer = setTimeout(() => recheck(), 150);
  });
  for (const radio of modes) radio.addEventListener('change', () => recheck());
  run.addEventListener('click', () => recheck());
  ready.then(() => recheck()).catch(() => undefined);

  // The editor, on the first turn to the playground.
  let editing = false;
  const openEditor = () => {
    if (editing) return;
    editing = true;
    section.dataset.editor = 'loading';
    import(new URL('./editor.js', import.meta.url).href)
      .then((editor: { mountEditor: MountEditor }) => {
        const mounted = editor.mountEditor(input, host);
        recheck = mounted.recheck;
        select = mounted.select;
        section.dataset.editor = 'ready';
      })
      .catch(() => {
        section.dataset.editor = 'unavailable';
      });
  };
  section.addEventListener('focusin', openEditor);
  section.addEventListener('pointerdown', openEditor);

  // "Random payload": the group package's own test data (`fake`, random variant), loaded on first use;
  // each click draws the next seed, so a page shows the same sequence every time.
  const random = section.querySelector<HTMLButtonElement>('[data-playground-random]');
  if (random) {
    let testing: Promise<Testing> | undefined;
    let seed = 0;
    const url = (path: string | undefined) => new URL(path ?? '', document.baseURI).href;
    random.addEventListener('click', async () => {
      try {
        testing ??= Promise.all([
          import(url(section.dataset.testing)) as Promise<{
            defineTesting(name: string, data: unknown): Testing;
          }>,
          import(url(section.dataset.testingData)) as Promise<{ data: unknown }>,
        ]).then(([{ defineTesting }, { data }]) => defineTesting(section.dataset.package ?? '', data));
        const drawn = seed++;
        const payload = (await testing).fake(section.dataset.key ?? '', { seed: drawn, variant: 'random' });
        input.value = JSON.stringify(payload, null, 2);
        section.dataset.randomSeed = String(drawn);
        // No verdict is shown for the new payload until its check is done; the editor follows the textarea.
        result.dataset.state = 'checking';
        input.dispatchEvent(new Event('input'));
        recheck();
      } catch (error) {
        show('invalid', `The test data could not be loaded: ${(error as Error).message}`);
      }
    });
  }

  function show(kind: 'valid' | 'invalid', text: string): void {
    result.textContent = text;
    result.classList.toggle('valid', kind === 'valid');
    result.classList.toggle('invalid', kind !== 'valid');
    result.dataset.state = kind;
  }

  function renderList(located: { item: ErrorItem; range: TextRange }[]): void {
    if (!list) return;
    list.replaceChildren();
    for (const { item, range } of located) {
      const button = document.createElement('button');
      button.type = 'button';
      button.dataset.attr = item.attr;
      button.textContent = `${item.attr || '(payload)'}: ${item.detail}`;
      button.addEventListener('click', () => select(range));
      const entry = document.createElement('li');
      entry.append(button);
      list.append(entry);
    }
  }
}
