import { describe, expect, it } from 'vitest';
import {
  type CompiledExports,
  type CompiledValidator,
  defineGroup,
  defineLazyEvent,
  defineStandardSchemas,
} from '../../generators/runtime/runtime.js';

/**
 * A group package's import sets up none of its events: each event's generated code runs when the
 * group first validates that event (importing the largest group cost every consumer's cold start).
 */
describe('a group sets up an event when it first validates it', () => {
  function counted(key: string) {
    const setUps: string[] = [];
    const compile = (exports: CompiledExports): CompiledValidator => {
      setUps.push(key);
      exports.context = 'argument';
      return (_data: unknown, _path: string, _parent: unknown, _run: unknown) => true;
    };
    return { setUps, event: defineLazyEvent(key, compile) };
  }

  it('none at definition, each once at its first validation, none for an unknown key', () => {
    const a = counted('a.created-v1');
    const b = counted('b.created-v1');
    const group = defineGroup<Record<string, unknown>>('@test/group', [a.event, b.event]);
    expect([...a.setUps, ...b.setUps]).toEqual([]);
    expect(group.eventKeys).toEqual(['a.created-v1', 'b.created-v1']);

    expect(group.validate('a.created-v1', {})).toEqual({ valid: true });
    expect(group.isEvent('a.created-v1', {})).toBe(true);
    expect(group.validate('b.created-v1', {})).toEqual({ valid: true });
    expect(group.validate('a.created-v1', {})).toEqual({ valid: true });
    expect(a.setUps).toEqual(['a.created-v1']);
    expect(b.setUps).toEqual(['b.created-v1']);

    const unknown = group.validate('c.created-v1', {});
    expect(unknown.valid ? undefined : unknown.error.code).toBe('unknown_event');
  });

  it('none for its Standard Schemas either until one validates, then that one event, once, shared', () => {
    const a = counted('a.created-v1');
    const b = counted('b.created-v1');
    const group = defineGroup<Record<string, unknown>>('@test/group', [a.event, b.event]);
    const strict = defineStandardSchemas<Record<string, unknown>>([a.event, b.event], 'strict');
    const tolerant = defineStandardSchemas<Record<string, unknown>>([a.event, b.event], 'tolerant');
    expect(Object.keys(strict)).toEqual(['a.created-v1', 'b.created-v1']);
    expect([...a.setUps, ...b.setUps]).toEqual([]);

    const payload = {};
    expect(strict['a.created-v1']!['~standard'].validate(payload)).toEqual({ value: payload });
    expect(tolerant['a.created-v1']!['~standard'].validate(payload)).toEqual({ value: payload });
    expect(group.validate('a.created-v1', payload)).toEqual({ valid: true });
    expect(a.setUps).toEqual(['a.created-v1']);
    expect(b.setUps).toEqual([]);
  });
});
