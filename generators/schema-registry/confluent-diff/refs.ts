/** A schema Confluent's loader would refuse, with where. */
export class SchemaLoadError extends Error {}

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** A reference as quoted in a message: JSON, cut short when long (it is the client's own text). */
export const quoteRef = (ref: string): string =>
  JSON.stringify(ref.length > 80 ? `${ref.slice(0, 80)}…` : ref);

/** `targetOf`'s answer for a pointer that names nothing. */
const MISSING = Symbol('missing');

/**
 * The local `$ref`s of one document, resolved in time linear in the document: each pointer is walked
 * once, the merged `$defs` (Confluent bridges top-level `definitions` into `$defs`) is built once, and
 * each target value is loaded once whatever pointer names it (a node per target, as Confluent builds
 * each once). `check` refuses a cycle of references with no schema between them (`{"$ref": "#"}`):
 * such a schema describes nothing, and following it would never end.
 */
export class RefResolver<Node extends { kind: string; ref?: string }> {
  private readonly targets = new Map<string, unknown>();
  private readonly nodes = new Map<unknown, Node>();
  private readonly byRef = new Map<string, Node | undefined>();
  private defs: Json | undefined;
  /** Every reference met while loading, in order (`check` walks them). */
  readonly seen: { ref: string; where: string }[] = [];

  constructor(
    private readonly root: unknown,
    private readonly load: (schema: unknown, where: string) => Node,
  ) {}

  /** The value a local reference (`#`, `#/...`) points at, or undefined. */
  targetOf(ref: string): unknown {
    if (!this.targets.has(ref)) this.targets.set(ref, this.walk(ref));
    const target = this.targets.get(ref);
    return target === MISSING ? undefined : target;
  }

  /** The node a reference resolves to (loaded on first use, so a shape may refer to itself). */
  resolve(ref: string): Node | undefined {
    if (this.byRef.has(ref)) return this.byRef.get(ref);
    const target = this.targetOf(ref);
    let node: Node | undefined;
    if (target !== undefined) {
      node = this.nodes.get(target);
      if (node === undefined) {
        node = this.load(target, ref);
        this.nodes.set(target, node);
      }
    }
    this.byRef.set(ref, node);
    return node;
  }

  /**
   * Refuses a reference that leads, through references only, back to itself. Each reference is
   * followed once overall (a chain already known to end is not walked again).
   */
  check(): void {
    const ends = new Set<string>();
    for (let index = 0; index < this.seen.length; index++) {
      const { ref: start, where } = this.seen[index]!;
      const chain: string[] = [];
      const onChain = new Set<string>();
      let ref: string | undefined = start;
      while (ref !== undefined && !ends.has(ref)) {
        if (onChain.has(ref)) {
          const loop = chain.slice(chain.indexOf(ref)).concat(ref).map(quoteRef).join(' -> ');
          throw new SchemaLoadError(
            `${where}/$ref: the reference ${quoteRef(start)} leads back to itself through references only (${loop}): a $ref cycle describes no schema.`,
          );
        }
        chain.push(ref);
        onChain.add(ref);
        const node = this.resolve(ref);
        ref = node?.kind === 'ref' ? node.ref : undefined;
      }
      for (const done of chain) ends.add(done);
    }
  }

  private walk(ref: string): unknown {
    const root = this.root;
    let target: unknown = root;
    const pointer = ref === '#' ? [] : ref.slice(2).split('/');
    for (const raw of pointer) {
      let segment: string;
      try {
        segment = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
      } catch {
        return MISSING;
      }
      if (target === root && segment === '$defs' && isObject(root)) {
        target = this.mergedDefs(root);
        continue;
      }
      target = Array.isArray(target)
        ? target[Number(segment)]
        : isObject(target) && Object.hasOwn(target, segment)
          ? target[segment]
          : undefined;
      if (target === undefined) return MISSING;
    }
    return target;
  }

  /** Top-level `definitions` bridged into `$defs` (Confluent's mergeDefBuckets), built once. */
  private mergedDefs(root: Json): unknown {
    if (!isObject(root.$defs)) return root.definitions;
    this.defs ??= { ...(isObject(root.definitions) ? root.definitions : {}), ...root.$defs };
    return this.defs;
  }
}
