import { dirname, sep } from 'node:path';
import type * as TS from 'typescript-api';
import { fieldPathsOf, hasFieldPath } from '../load/index.js';
import type { Catalogue } from '../model.js';

/**
 * Where a value comes from within an event payload: `path` is a field path as consumers name them
 * (`lines[].amount`, `''` for the payload itself); `many` marks an array whose items are at `path`
 * (what `lines.map((line) => line.amount)` returns).
 */
export interface Origin {
  event: string;
  path: string;
  many?: boolean;
}

/** A field path consumers may write (the consumer declaration schema's `fieldPath`, without `*`). */
const FIELD_PATH = /^[A-Za-z_][A-Za-z0-9_-]*(\[\])*(\.[A-Za-z_][A-Za-z0-9_-]*(\[\])*)*$/;

/** How deep the index follows nested shapes (a shape that contains itself stops earlier). */
const INDEX_DEPTH = 16;

/**
 * The group packages' payload types as the checker sees them: each event's payload type (from the
 * packages' `EventPayloadMap`), and every object or array type within one, with the paths it is at.
 * A value whose type is one of these is read as that part of those events, whatever code made it.
 */
export class PayloadTypes {
  /** Payload type -> the event keys whose payload it is (`same_as` events share one type). */
  private readonly roots = new Map<TS.Type, string[]>();
  /** A type alias or interface name of a payload -> its event key (the name an annotation uses). */
  private readonly names = new Map<string, string>();
  /** An object or array type within payloads -> where it is. */
  private readonly index = new Map<TS.Type, Origin[]>();
  private readonly packageDirs: string[] = [];

  constructor(
    private readonly api: typeof TS,
    program: TS.Program,
    private readonly checker: TS.TypeChecker,
    private readonly catalogue: Catalogue,
  ) {
    for (const file of program.getSourceFiles()) {
      if (!file.isDeclarationFile || program.isSourceFileDefaultLibrary(file)) continue;
      for (const statement of file.statements)
        if (api.isInterfaceDeclaration(statement) && statement.name.text === 'EventPayloadMap')
          this.readPayloadMap(file, statement);
    }
    for (const [type, events] of this.roots)
      for (const event of events) this.indexFields(type, { event, path: '' }, [type]);
  }

  /** Whether the project sees any group package of the catalogue at all. */
  get packagesFound(): boolean {
    return this.roots.size > 0;
  }

  /** Whether a declaration lives in a group package (not the run time, the project or the library). */
  isPackageDeclaration(declaration: TS.Node): boolean {
    const file = declaration.getSourceFile().fileName;
    return this.packageDirs.some((dir) => file.startsWith(dir));
  }

  /** The events whose payload `type` is (a union or a type parameter: each member or its constraint). */
  rootsOf(type: TS.Type): Origin[] {
    const found: Origin[] = [];
    for (const member of this.members(type)) {
      const byName = member.aliasSymbol ? this.names.get(member.aliasSymbol.getName()) : undefined;
      if (byName && this.roots.has(member)) found.push({ event: byName, path: '' });
      else for (const event of this.roots.get(member) ?? []) found.push({ event, path: '' });
    }
    return found;
  }

  /** The payload type of an event key, if a group package the project sees has it. */
  rootTypeOf(event: string): TS.Type | undefined {
    for (const [type, events] of this.roots) if (events.includes(event)) return type;
    return undefined;
  }

  /** The event whose payload type is called `name` (an interface or a `same_as` alias). */
  eventNamed(name: string): string | undefined {
    return this.names.get(name);
  }

  /** Where a type within payloads is (an object or an array of them), from the index. */
  placesOf(type: TS.Type): Origin[] {
    return this.members(type).flatMap((member) => this.index.get(member) ?? []);
  }

  /** Whether a type is or holds (in a union, an array, a type argument) a payload type or one within. */
  holdsPayload(type: TS.Type, depth = 0): boolean {
    if (depth > 6) return false;
    return this.members(type).some(
      (member) =>
        this.roots.has(member) ||
        this.index.has(member) ||
        (this.isReference(member) &&
          this.checker.getTypeArguments(member).some((arg) => this.holdsPayload(arg, depth + 1))),
    );
  }

  /** Whether `path` names something of `event` that a declaration may name. */
  isField(event: string, path: string): boolean {
    const version = this.catalogue.events[event];
    return version !== undefined && FIELD_PATH.test(path) && hasFieldPath(path, this.fieldPaths(event));
  }

  /** Whether anything of `event` lies under `path` (an object or an array), or `path` is the payload. */
  isComposite(event: string, path: string): boolean {
    if (path === '') return true;
    const fields = this.fieldPaths(event);
    if (fields.open.includes(path)) return true;
    for (const other of fields.paths)
      if (other.startsWith(`${path}.`) || other.startsWith(`${path}[]`)) return true;
    return false;
  }

  private fieldPaths(event: string) {
    return fieldPathsOf(this.catalogue.events[event]!, this.catalogue.shapes);
  }

  /** A type's members: a union's, a type parameter's constraint, without null and undefined. */
  private members(type: TS.Type): TS.Type[] {
    let resolved = this.checker.getNonNullableType(type);
    if (resolved.flags & this.api.TypeFlags.TypeParameter)
      resolved = this.checker.getBaseConstraintOfType(resolved) ?? resolved;
    if (resolved.isUnion()) return resolved.types.flatMap((member) => this.members(member));
    // An intersection (`V2 & { seen: true }`) is each of its parts, and itself.
    if (resolved.isIntersection()) return [resolved, ...resolved.types];
    return [resolved];
  }

  private isReference(type: TS.Type): type is TS.TypeReference {
    return (
      (type.flags & this.api.TypeFlags.Object) !== 0 &&
      ((type as TS.ObjectType).objectFlags & this.api.ObjectFlags.Reference) !== 0
    );
  }

  private readPayloadMap(file: TS.SourceFile, map: TS.InterfaceDeclaration): void {
    const api = this.api;
    let found = false;
    for (const member of map.members) {
      if (!api.isPropertySignature(member) || !member.type) continue;
      const key = api.isStringLiteral(member.name) ? member.name.text : undefined;
      if (key === undefined || this.catalogue.events[key] === undefined) continue;
      found = true;
      const type = this.checker.getTypeFromTypeNode(member.type);
      this.roots.set(type, [...(this.roots.get(type) ?? []), key]);
      if (api.isTypeReferenceNode(member.type) && api.isIdentifier(member.type.typeName))
        this.names.set(member.type.typeName.text, key);
    }
    if (found) this.packageDirs.push(dirname(file.fileName) + sep);
  }

  private indexFields(type: TS.Type, at: Origin, stack: TS.Type[]): void {
    if (stack.length > INDEX_DEPTH) return;
    for (const property of this.checker.getPropertiesOfType(type)) {
      const path = at.path ? `${at.path}.${property.getName()}` : property.getName();
      this.indexType(
        this.checker.getNonNullableType(this.checker.getTypeOfSymbol(property)),
        at.event,
        path,
        stack,
      );
    }
  }

  private indexType(type: TS.Type, event: string, path: string, stack: TS.Type[]): void {
    if (!this.isField(event, path) || stack.includes(type)) return;
    for (const member of type.isUnion() ? type.types : [type]) {
      if (!(member.flags & this.api.TypeFlags.Object)) continue;
      if (this.declaredInPackage(member)) this.add(member, { event, path });
      if (this.checker.isArrayType(member) || this.checker.isTupleType(member)) {
        for (const item of this.checker.getTypeArguments(member as TS.TypeReference))
          this.indexType(this.checker.getNonNullableType(item), event, `${path}[]`, [...stack, member]);
      } else this.indexFields(member, { event, path }, [...stack, member]);
    }
  }

  /** An object type the packages declare, or an array of them (never `string[]`: any code makes those). */
  private declaredInPackage(type: TS.Type, depth = 0): boolean {
    if (depth > 8) return false;
    if (this.checker.isArrayType(type))
      return this.declaredInPackage(
        this.checker.getNonNullableType(this.checker.getTypeArguments(type as TS.TypeReference)[0]!),
        depth + 1,
      );
    const declarations = type.getSymbol()?.getDeclarations() ?? [];
    return declarations.some((declaration) => this.isPackageDeclaration(declaration));
  }

  private add(type: TS.Type, origin: Origin): void {
    const list = this.index.get(type);
    if (!list) this.index.set(type, [origin]);
    else if (!list.some((o) => o.event === origin.event && o.path === origin.path)) list.push(origin);
  }
}
