import { type Composition, type Field, typeNotation } from '../model.js';
import type { Definition, ResolveContext } from './definition.js';
import { readOwnFields } from './parse-type.js';
import { suggest } from './suggest.js';
import { toPointer } from './yaml-source.js';

/** How a definition builds on another, as the model records it. */
export function compositionOf(def: Definition): Composition {
  if (typeof def.raw.same_as === 'string') return { kind: 'same_as', of: def.raw.same_as };
  if (typeof def.raw.extends === 'string') {
    return {
      kind: 'extends',
      of: def.raw.extends,
      ofKind: /^[A-Z]/.test(def.raw.extends) ? 'shape' : 'event',
    };
  }
  return { kind: 'fields' };
}

/**
 * The field lists of definitions with `same_as` / `extends` resolved: inherited fields first, own ones
 * added or (with the same type) redefined. Memoised across calls, each cycle reported once.
 */
export function createFieldResolver(ctx: ResolveContext): (def: Definition) => Field[] {
  const resolved = new Map<Definition, Field[]>();
  const visiting: Definition[] = [];
  const inCycle = new Set<Definition>();
  return fieldsOf;

  function fieldsOf(def: Definition): Field[] {
    const done = resolved.get(def);
    if (done) return done;
    if (visiting.includes(def)) {
      const cycle = visiting.slice(visiting.indexOf(def));
      if (!cycle.some((member) => inCycle.has(member))) {
        for (const member of cycle) inCycle.add(member);
        reportCycle(ctx, cycle, def);
      }
      return [];
    }
    visiting.push(def);
    const fields = mergeFields(ctx, def, inheritedFields(def), readOwnFields(ctx, def));
    visiting.pop();
    resolved.set(def, fields);
    return fields;
  }

  function inheritedFields(def: Definition): Field[] {
    const { same_as: sameAs, extends: base } = def.raw;
    const reference: { via: 'same_as' | 'extends'; name: string } | undefined =
      typeof sameAs === 'string'
        ? { via: 'same_as', name: sameAs }
        : typeof base === 'string'
          ? { via: 'extends', name: base }
          : undefined;
    if (!reference) return [];
    const target = referenced(ctx, def, reference.via, reference.name);
    if (!target) return [];
    return fieldsOf(target).map((field) => ({ ...field, inheritedFrom: field.inheritedFrom ?? target.name }));
  }
}

/** A `same_as`/`extends` loop, reported once at its last member (`def` is where it closes). */
function reportCycle(ctx: ResolveContext, cycle: Definition[], def: Definition): void {
  const last = cycle[cycle.length - 1]!;
  const via = typeof last.raw.same_as === 'string' ? 'same_as' : 'extends';
  const chain = [...cycle, def].map((member) => `\`${member.name}\``).join(' → ');
  ctx.problems.push(
    last.source.problem(
      'composition-cycle',
      [...last.path, via],
      `\`same_as\`/\`extends\` loop: ${chain}.`,
      'A definition cannot build on itself; give one of them its own `fields`.',
    ),
  );
}

/** Looks up what `same_as` / `extends` names; reports it when it does not exist. */
function referenced(
  ctx: ResolveContext,
  def: Definition,
  via: 'same_as' | 'extends',
  name: string,
): Definition | undefined {
  const wantsShape = def.kind === 'shape' || (via === 'extends' && /^[A-Z]/.test(name));
  const target = wantsShape ? ctx.shapeDefs.get(name) : ctx.eventDefs.get(name);
  if (target || ctx.incomplete) return target;
  const pool = wantsShape ? ctx.shapeDefs.keys() : ctx.eventDefs.keys();
  const guess = suggest(name, pool);
  ctx.problems.push(
    def.source.problem(
      wantsShape ? 'unknown-shape' : 'unknown-event',
      [...def.path, via],
      `${wantsShape ? 'Shape' : 'Event'} \`${name}\` is not defined.`,
      guess ? `Did you mean \`${guess}\`?` : `Define it, or check the spelling of \`${name}\`.`,
    ),
  );
  return undefined;
}

/** Own fields add to inherited ones; redefining one is allowed only with the same type. */
function mergeFields(ctx: ResolveContext, def: Definition, inherited: Field[], own: Field[]): Field[] {
  const merged = [...inherited];
  for (const field of own) {
    const index = merged.findIndex((f) => f.name === field.name);
    if (index === -1) {
      merged.push(field);
      continue;
    }
    const base = merged[index]!;
    if (typeNotation(base.type) !== typeNotation(field.type)) {
      ctx.problems.push({
        code: 'field-type-conflict',
        message: `Field \`${field.name}\` is \`${typeNotation(base.type)}\` in \`${base.inheritedFrom ?? String(def.raw.extends)}\` but redefined here as \`${typeNotation(field.type)}\`.`,
        hint: 'Keep the inherited type, or give the field another name (a changed type needs a new event version).',
        ...field.source,
        pointer: toPointer([...def.path, 'fields', field.name]),
      });
      continue;
    }
    merged[index] = field;
  }
  return merged;
}
