import type { GateOutcome } from '../diff/gate.js';
import type { ImpactReport } from '../diff/impact.js';
import type { Finding } from '../diff/rule.js';
import type { LintGate } from '../lint/gate.js';
import type { RuleDataProbe } from '../lint/rule.js';
import type { CatalogueProblem } from '../load/index.js';
import type { Catalogue } from '../model.js';
import type { GateBase } from '../release/base.js';
import type { SourceOptions } from '../sources/index.js';

// What `eventry check` is asked and what it answers: the data between the gate and whoever prints it.

/** The base the gate was asked for: `--base REF`, else `EVENTRY_BASE` (see `resolveGateBase`). */
export interface ExplicitBase {
  spec: string;
  from: '--base' | 'EVENTRY_BASE';
}

/** What `runGate` needs: where the catalogue is and how it loads (`SourceOptions`), and the base asked for. */
export interface GateRequest {
  source: SourceOptions;
  base?: ExplicitBase;
  /** The format the lint's new findings are given in. */
  format: 'text' | 'github';
  /**
   * The test data's probe of the data rules, for the lint step (`LintOptions.ruleData`): asked for the
   * current catalogue, so that the caller loads it only for a catalogue with rules.
   */
  ruleData?: (catalogue: Catalogue) => Promise<RuleDataProbe | undefined>;
}

/** Whom the change breaks, or the consumer declarations that are wrong. */
export type ConsumersVerdict =
  | { kind: 'declaration-problems'; problems: CatalogueProblem[] }
  /** `unreadPassing`: blocked changes no declared consumer reads that the config lets pass. */
  | { kind: 'impact'; impact: ImpactReport; broken: ImpactReport['impacts']; unreadPassing: Finding[] };

/** Everything the gate found once it could compare (the lint only when the declarations are right). */
export interface GateVerdict {
  kind: 'gated';
  base: GateBase;
  /** The base's name in messages: `main (1a2b3c4)`, `an empty catalogue`. */
  baseLabel: string;
  /** The prefix of the current catalogue's source paths. */
  root: string;
  outcome: GateOutcome;
  /** The fix for each blocked change made in a shared shape, by `ShapeChange.key`: the one `diff` gives. */
  shapeFixes: Map<string, string>;
  consumers: ConsumersVerdict;
  lint?: LintGate;
}

/** The outcome of `runGate`: a verdict, or why the gate could not give one. */
export type GateRun =
  | GateVerdict
  /** A usage error: no catalogue folder, a current catalogue that cannot be read. */
  | { kind: 'usage'; message: string }
  /** The current catalogue, or its allow-list, has problems. */
  | { kind: 'catalogue-problems'; problems: CatalogueProblem[]; root: string }
  | { kind: 'allow-list-problems'; problems: CatalogueProblem[]; root: string }
  /** No base could be chosen (a shallow clone, not a repository). */
  | { kind: 'base-problem'; code: string; message: string }
  /** The base names nothing this repository holds, or a commit without a catalogue (`base` once chosen). */
  | { kind: 'base-unseen'; code: string; message: string; hint: string; base?: GateBase }
  | { kind: 'base-does-not-load'; base: GateBase; problems: number };
