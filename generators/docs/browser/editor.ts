// The playground's editor (CodeMirror 6): JSON highlighting, line numbers, bracket matching, undo,
// and each validation error marked at its field, with the detail on hover. Loaded by playground.ts.
import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { json, jsonParseLinter } from '@codemirror/lang-json';
import { bracketMatching, defaultHighlightStyle, syntaxHighlighting } from '@codemirror/language';
import { type Diagnostic, forceLinting, linter, lintGutter, setDiagnostics } from '@codemirror/lint';
import { EditorState } from '@codemirror/state';
import { EditorView, keymap, lineNumbers } from '@codemirror/view';
import type { MountEditor } from './playground-host.js';

/**
 * The editor's look, from the page's colour variables (they inherit into the shadow root), so it follows
 * the light and dark schemes.
 */
const theme = EditorView.theme({
  '&': {
    color: 'var(--fg)',
    backgroundColor: 'var(--bg)',
    border: '1px solid var(--muted)',
    borderRadius: '6px',
    fontSize: '14px',
    maxHeight: '420px',
  },
  '&.cm-focused': { outline: '3px solid var(--focus)', outlineOffset: '2px' },
  '.cm-scroller': {
    fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
    overflow: 'auto',
  },
  '.cm-gutters': {
    backgroundColor: 'var(--panel)',
    color: 'var(--muted)',
    borderRight: '1px solid var(--line)',
  },
  '.cm-content': { caretColor: 'var(--fg)' },
  '.cm-cursor': { borderLeftColor: 'var(--fg)' },
  '.cm-activeLine': { backgroundColor: 'transparent' },
  '.cm-tooltip': { backgroundColor: 'var(--panel)', color: 'var(--fg)', border: '1px solid var(--line)' },
  '.cm-diagnostic-error': { borderLeftColor: 'var(--bad-fg)' },
  // CodeMirror draws these with data: images, which a strict `img-src 'self'` refuses: plain CSS instead.
  '.cm-lintRange-error': {
    backgroundImage: 'none',
    textDecoration: 'underline wavy var(--bad-fg)',
    textDecorationSkipInk: 'none',
    textUnderlineOffset: '3px',
  },
  '.cm-lint-marker-error': {
    content: 'none',
    backgroundColor: 'var(--bad-fg)',
    borderRadius: '50%',
    width: '0.7em',
    height: '0.7em',
    margin: '0.35em 0 0 0.15em',
  },
});

/**
 * Replaces the textarea with the editor (the textarea stays, hidden and in sync: forms and tests read it).
 * The editor lives in a shadow root: CodeMirror then adopts its styles as constructed style sheets,
 * which a strict `style-src 'self'` allows, where the `<style>` element it adds to a document is refused.
 */
export const mountEditor: MountEditor = (source, host) => {
  /** Validates `text` (the textarea follows the editor) and returns each error as a diagnostic. */
  const diagnose = (text: string): Diagnostic[] => {
    source.value = text;
    return (host.check(text) ?? []).map(({ item, range }) => ({
      from: range.from,
      to: range.to,
      severity: 'error' as const,
      source: item.code,
      message: `${item.attr || '(payload)'}: ${item.detail}`,
    }));
  };
  const frame = document.createElement('div');
  frame.className = 'editor-host';
  frame.dataset.playgroundEditor = '';
  const shadow = frame.attachShadow({ mode: 'open' });
  const view = new EditorView({
    root: shadow,
    parent: shadow,
    state: EditorState.create({
      doc: source.value,
      extensions: [
        lineNumbers(),
        history(),
        bracketMatching(),
        syntaxHighlighting(defaultHighlightStyle, { fallback: true }),
        keymap.of([...defaultKeymap, ...historyKeymap]),
        json(),
        linter(jsonParseLinter(), { delay: 200 }),
        linter((editor) => diagnose(editor.state.doc.toString()), { delay: 200 }),
        lintGutter(),
        theme,
        EditorView.contentAttributes.of({ 'aria-label': 'Payload (JSON)', 'data-playground-input': '' }),
      ],
    }),
  });
  const hadFocus = document.activeElement === source;
  source.after(frame);
  source.hidden = true;
  source.removeAttribute('data-playground-input');
  source.dataset.playgroundSource = '';
  // A reader typing when the editor arrives goes on where the caret was.
  if (hadFocus) {
    const end = Math.min(source.selectionEnd, view.state.doc.length);
    view.dispatch({ selection: { anchor: Math.min(source.selectionStart, end), head: end } });
    view.focus();
  }
  // Text put into the textarea by script (a test, an extension) still reaches the editor.
  source.addEventListener('input', () => {
    if (source.value !== view.state.doc.toString()) {
      view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: source.value } });
    }
  });
  host.ready.then(() => forceLinting(view)).catch(() => undefined);
  return {
    // Validated again now (a mode changed, Validate clicked): the linter would wait for an edit.
    recheck: () => view.dispatch(setDiagnostics(view.state, diagnose(view.state.doc.toString()))),
    select: (range) => {
      view.dispatch({ selection: { anchor: range.from, head: range.to }, scrollIntoView: true });
      view.focus();
    },
  };
};
