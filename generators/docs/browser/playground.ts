// The playground: validates the payload with the event's validator module, copied unchanged from the
// group package (`pkg/<group>/events/<key>.js`): the same precompiled code the npm package ships. It
// validates as you type; each error of the platform's 400 body is listed, and a click selects its field.
// The editor (CodeMirror, assets/editor.js) loads when the reader first turns to the playground, so an
// event page stays light for those who only read it.
import { rangeOfAttr, type TextRange } from './json-path.js';
import type {
  ErrorItem,
  MountEditor,
  PlaygroundHost,
  Testing,
  Validate,
  Verdict,
} from './playground-host.js';

const section = document.querySelector<HTMLElement>('[data-playground]');
if (section) startPlayground(section);

/**
 * The playground of one event page: what its parts share, its elements and what the editor replaces
 * once it is mounted (how a check is re-run, how an error's field is selected).
 */
interface Playground {
  readonly section: HTMLElement;
  readonly input: HTMLTextAreaElement;
  readonly result: HTMLElement;
  readonly list: HTMLOListElement | null;
  readonly modes: HTMLInputElement[];
  validate?: Validate;
  recheck: () => void;
  select: (range: TextRange) => void;
}

function startPlayground(section: HTMLElement): void {
  const input = section.querySelector<HTMLTextAreaElement>('[data-playground-input]')!;
  const playground: Playground = {
    section,
    input,
    result: section.querySelector<HTMLElement>('[data-playground-result]')!,
    list: section.querySelector<HTMLOListElement>('[data-playground-errors]'),
    modes: [...section.querySelectorAll<HTMLInputElement>('[data-playground-mode]')],
    recheck: () => undefined,
    select: (range) => {
      input.focus();
      input.setSelectionRange(range.from, range.to);
    },
  };
  const ready = loadValidator(playground);
  const host = checker(playground, ready);
  playground.recheck = () => {
    host.check(input.value);
  };
  checkAsYouType(playground, ready);
  openEditorOnFirstTurn(playground, host);
  offerRandomPayloads(playground, ready);
  offerConversions(playground);
}

/** Imports the event's validator module; a failure is shown, and the promise rejects. */
function loadValidator(playground: Playground): Promise<void> {
  const { section } = playground;
  return (
    import(new URL(section.dataset.module ?? '', document.baseURI).href) as Promise<{ validate: Validate }>
  ).then(
    (module) => {
      playground.validate = module.validate;
    },
    (error: Error) => {
      show(playground, 'invalid', `The validator could not be loaded: ${error.message}`);
      throw error;
    },
  );
}

/** The host the editor calls: checks a text, shows the verdict and lists its errors with their ranges. */
function checker(playground: Playground, ready: Promise<void>): PlaygroundHost {
  const { result, modes } = playground;
  return {
    ready,
    check(text) {
      let payload: unknown;
      try {
        payload = JSON.parse(text);
      } catch (error) {
        show(playground, 'invalid', `Not JSON: ${(error as Error).message}`);
        renderList(playground, []);
        return undefined;
      }
      if (!playground.validate) return undefined;
      const mode = modes.find((radio) => radio.checked)?.value ?? 'strict';
      const verdict = playground.validate(payload, { mode });
      // The mode this verdict was reached in, so a reader (or a test) knows which one it shows.
      result.dataset.mode = mode;
      if (verdict.valid) {
        show(playground, 'valid', 'valid');
        renderList(playground, []);
        return [];
      }
      show(playground, 'invalid', JSON.stringify(verdict.error, null, 2));
      const located = verdict.error.errors.map((item) => ({ item, range: rangeOfAttr(text, item.attr) }));
      renderList(playground, located);
      return located;
    },
  };
}

/** Re-checks 150 ms after typing stops, on a change of mode, on Run, and once the validator is loaded. */
function checkAsYouType(playground: Playground, ready: Promise<void>): void {
  const run = playground.section.querySelector<HTMLButtonElement>('[data-playground-run]')!;
  let timer: ReturnType<typeof setTimeout> | undefined;
  playground.input.addEventListener('input', () => {
    clearTimeout(timer);
    timer = setTimeout(() => playground.recheck(), 150);
  });
  for (const radio of playground.modes) radio.addEventListener('change', () => playground.recheck());
  run.addEventListener('click', () => playground.recheck());
  ready.then(() => playground.recheck()).catch(() => undefined);
}

/** The editor, loaded on the first turn to the playground; it takes over checking and selecting. */
function openEditorOnFirstTurn(playground: Playground, host: PlaygroundHost): void {
  const { section } = playground;
  let editing = false;
  const openEditor = () => {
    if (editing) return;
    editing = true;
    section.dataset.editor = 'loading';
    import(new URL('./editor.js', import.meta.url).href)
      .then((editor: { mountEditor: MountEditor }) => {
        const mounted = editor.mountEditor(playground.input, host);
        playground.recheck = mounted.recheck;
        playground.select = mounted.select;
        section.dataset.editor = 'ready';
      })
      .catch(() => {
        section.dataset.editor = 'unavailable';
      });
  };
  section.addEventListener('focusin', openEditor);
  section.addEventListener('pointerdown', openEditor);
}

/** The test data's check of a drawn payload: the event's validator, strict. */
type RuleCheck = (key: string, payload: unknown) => Verdict;

/**
 * "Random payload": the group package's own test data (`fake`, random variant), loaded on first use;
 * each click draws the next seed, so a page shows the same sequence every time. The event's validator
 * checks each draw, so a payload keeps the event's data rules as well as its schema.
 */
function offerRandomPayloads(playground: Playground, ready: Promise<void>): void {
  const { section, input, result } = playground;
  const random = section.querySelector<HTMLButtonElement>('[data-playground-random]');
  if (!random) return;
  let testing: Promise<Testing> | undefined;
  let seed = 0;
  const url = (path: string | undefined) => new URL(path ?? '', document.baseURI).href;
  random.addEventListener('click', async () => {
    try {
      const check = async (): Promise<RuleCheck> => {
        await ready;
        const validate = playground.validate!;
        return (_key, payload) => validate(payload, { mode: 'strict' });
      };
      testing ??= Promise.all([
        import(url(section.dataset.testing)) as Promise<{
          defineTesting(name: string, data: unknown, fastCheck: undefined, check: RuleCheck): Testing;
        }>,
        import(url(section.dataset.testingData)) as Promise<{ data: unknown }>,
        check(),
      ]).then(([{ defineTesting }, { data }, rules]) =>
        defineTesting(section.dataset.package ?? '', data, undefined, rules),
      );
      const drawn = seed++;
      const payload = (await testing).fake(section.dataset.key ?? '', { seed: drawn, variant: 'random' });
      input.value = JSON.stringify(payload, null, 2);
      section.dataset.randomSeed = String(drawn);
      // No verdict is shown for the new payload until its check is done; the editor follows the textarea.
      result.dataset.state = 'checking';
      input.dispatchEvent(new Event('input'));
      playground.recheck();
    } catch (error) {
      show(playground, 'invalid', `The test data could not be loaded: ${(error as Error).message}`);
    }
  });
}

/** The conversions module of an event page (`migrations/<key>.js`): a function per version it converts from. */
type Conversions = Record<string, ((payload: unknown) => unknown) | undefined>;

/**
 * "Convert from v1": the payload in the box, read as one of that version, becomes one of this version by
 * the catalogue's migration (compiled as the package's `upcast`; the module is loaded on first use), and
 * the result is validated as any payload typed there.
 */
function offerConversions(playground: Playground): void {
  const { section, input, result } = playground;
  const buttons = [...section.querySelectorAll<HTMLButtonElement>('[data-playground-convert]')];
  if (buttons.length === 0) return;
  let conversions: Promise<Conversions> | undefined;
  const url = new URL(section.dataset.conversions ?? '', document.baseURI).href;
  const convert = async (from: string) => {
    let payload: unknown;
    try {
      payload = JSON.parse(input.value);
    } catch {
      // Nothing to convert: the check says why (as the editor's own checks of this text will again).
      playground.recheck();
      return;
    }
    try {
      conversions ??= (import(url) as Promise<{ conversions: Conversions }>).then((m) => m.conversions);
      const migrate = (await conversions)[from];
      if (!migrate) throw new Error(`this page has no migration from ${from}`);
      input.value = JSON.stringify(migrate(payload), null, 2);
      section.dataset.convertedFrom = from;
      result.dataset.state = 'checking';
      input.dispatchEvent(new Event('input'));
      playground.recheck();
    } catch (error) {
      show(playground, 'invalid', `The conversion from ${from} failed: ${(error as Error).message}`);
    }
  };
  for (const button of buttons)
    button.addEventListener('click', () => void convert(button.dataset.playgroundConvert ?? ''));
}

function show({ result }: Playground, kind: 'valid' | 'invalid', text: string): void {
  result.textContent = text;
  result.classList.toggle('valid', kind === 'valid');
  result.classList.toggle('invalid', kind !== 'valid');
  result.dataset.state = kind;
}

/** The error list: a button per error item, which selects its field. */
function renderList(playground: Playground, located: { item: ErrorItem; range: TextRange }[]): void {
  const { list } = playground;
  if (!list) return;
  list.replaceChildren();
  for (const { item, range } of located) {
    const button = document.createElement('button');
    button.type = 'button';
    button.dataset.attr = item.attr;
    button.textContent = `${item.attr || '(payload)'}: ${item.detail}`;
    button.addEventListener('click', () => playground.select(range));
    const entry = document.createElement('li');
    entry.append(button);
    list.append(entry);
  }
}
