import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import type * as TS from 'typescript-api';
import type { Catalogue } from '../model.js';
import { Resolver, TooDeep } from './origins.js';
import { PayloadTypes } from './payload-types.js';
import { ReadCollector, type UsageFinding } from './reads.js';

// typescript 5.9 under an alias: the repository's `typescript` is the native 7, which has no API. Loaded
// on first use: no other command needs it (see docs/decisions/0060).
const require = createRequire(import.meta.url);
let typescript: typeof TS | undefined;
function ts(): typeof TS {
  typescript ??= require('typescript-api') as typeof TS;
  return typescript;
}

/** A problem or warning of a scan, located in the project (see `UsageFinding`). */
export interface ScanFinding extends Omit<UsageFinding, 'code'> {
  code: UsageFinding['code'] | 'usage-no-files' | 'usage-package-unresolved' | 'usage-too-deep';
}

/** What a consumer project reads: for each event key, the field paths (`lines[].amount`, `meta.*`, `*`). */
export interface ProjectUsage {
  reads: Map<string, Set<string>>;
  /** How many of the project's own source files were scanned. */
  files: number;
  /** Warnings (reads declared wider than read) and errors (the scan refuses: nothing may be written). */
  findings: ScanFinding[];
}

/** Why a project cannot be scanned (a usage error, not a finding). */
export class UsageError extends Error {}

/**
 * Reads the TypeScript project in `dir` (its tsconfig.json) with the type checker and collects every
 * field of the catalogue's event payloads it reads (see `ReadCollector` and `Resolver`). Errors in
 * `findings` mean the reads are not all known: a group package import that does not resolve, a
 * config that selects no file, a key no version has, code nested deeper than can be followed.
 */
export function scanProject(dir: string, catalogue: Catalogue): ProjectUsage {
  const api = ts();
  const { parsed, configPath } = readConfig(api, dir);
  if (parsed.fileNames.length === 0) return refused(noFiles(configPath));
  try {
    return scanFiles(api, parsed, catalogue, false).get('')!;
  } catch (error) {
    if (!isTooDeep(error)) throw error;
    return refused(tooDeep(error, configPath));
  }
}

/** `scanProject` of each source file alone, in one program (a corpus of cases is one project). */
export function scanProjectFiles(dir: string, catalogue: Catalogue): Map<string, ProjectUsage> {
  const api = ts();
  const { parsed, configPath } = readConfig(api, dir);
  if (parsed.fileNames.length === 0) return new Map([['', refused(noFiles(configPath))]]);
  return scanFiles(api, parsed, catalogue, true);
}

function readConfig(api: typeof TS, dir: string): { parsed: TS.ParsedCommandLine; configPath: string } {
  const configPath = api.findConfigFile(dir, api.sys.fileExists, 'tsconfig.json');
  if (!configPath || dirname(configPath) !== dir.replace(/\/$/, ''))
    throw new UsageError(`\`${dir}\` has no tsconfig.json.`);
  const parsed = api.getParsedCommandLineOfConfigFile(
    configPath,
    {},
    {
      ...api.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
        throw new UsageError(api.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
      },
    },
  );
  if (!parsed) throw new UsageError(`\`${configPath}\` cannot be read.`);
  return { parsed, configPath };
}

function noFiles(configPath: string): ScanFinding {
  return {
    file: configPath,
    line: 1,
    column: 1,
    severity: 'error',
    code: 'usage-no-files',
    message: 'the config selects no source file.',
  };
}

/** The default library's files, parsed once per process (they never change under a run). */
const libraryFiles = new Map<string, TS.SourceFile>();

function createProgram(api: typeof TS, parsed: TS.ParsedCommandLine): TS.Program {
  const options = { ...parsed.options, noEmit: true };
  const host = api.createCompilerHost(options);
  const libraryDir = dirname(api.getDefaultLibFilePath(options));
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, language, onError, fresh) => {
    if (dirname(fileName) !== libraryDir) return getSourceFile(fileName, language, onError, fresh);
    const key = `${fileName}\0${typeof language === 'object' ? language.languageVersion : language}`;
    let file = libraryFiles.get(key);
    if (!file) {
      file = getSourceFile(fileName, language, onError, fresh);
      if (file) libraryFiles.set(key, file);
    }
    return file;
  };
  return api.createProgram(parsed.fileNames, options, host);
}

/** One scan of a program: of all its files together, or (`perFile`, for tests) of each alone. */
function scanFiles(
  api: typeof TS,
  parsed: TS.ParsedCommandLine,
  catalogue: Catalogue,
  perFile: boolean,
): Map<string, ProjectUsage> {
  const program = createProgram(api, parsed);
  const checker = program.getTypeChecker();
  const sources = program
    .getSourceFiles()
    .filter((file) => !file.isDeclarationFile && !file.fileName.includes('/node_modules/'));
  const types = new PayloadTypes(api, program, checker, catalogue);
  const resolver = new Resolver(api, checker, types, callsOf(api, checker, sources));
  const groups = perFile ? sources.map((source) => [source]) : [sources];
  const results = new Map<string, ProjectUsage>();
  for (const group of groups) {
    const name = perFile ? group[0]!.fileName : '';
    const unresolved = group.flatMap((source) =>
      unresolvedImports(api, checker, source, catalogue.config.scope),
    );
    if (unresolved.length > 0) {
      results.set(name, { reads: new Map(), files: group.length, findings: unresolved });
      continue;
    }
    if (!types.packagesFound) {
      results.set(name, refused(noPackages(parsed, catalogue)));
      continue;
    }
    try {
      const collector = new ReadCollector(api, checker, types, resolver);
      for (const source of group) collector.walk(source);
      results.set(name, { reads: collector.reads, files: group.length, findings: collector.findings });
    } catch (error) {
      if (!perFile || !isTooDeep(error)) throw error;
      results.set(name, refused(tooDeep(error, group[0]!.fileName)));
    }
  }
  return results;
}

function noPackages(parsed: TS.ParsedCommandLine, catalogue: Catalogue): ScanFinding {
  return {
    file: String(parsed.options.configFilePath),
    line: 1,
    column: 1,
    severity: 'error',
    code: 'usage-package-unresolved',
    message: `the project imports no group package of \`${catalogue.config.scope}\`: nothing it reads can be known.`,
  };
}

function isTooDeep(error: unknown): boolean {
  return error instanceof TooDeep || (error instanceof RangeError && /call stack/i.test(error.message));
}

function tooDeep(error: unknown, file: string): ScanFinding {
  const node = error instanceof TooDeep ? error.node : undefined;
  return {
    ...(node ? locate(node) : { file, line: 1, column: 1 }),
    severity: 'error',
    code: 'usage-too-deep',
    message: 'code nested (or a chain of values) deeper than eventry can follow; split it up.',
  };
}

function refused(finding: ScanFinding): ProjectUsage {
  return { reads: new Map(), files: 0, findings: [finding] };
}

function locate(node: TS.Node): { file: string; line: number; column: number } {
  const source = node.getSourceFile();
  const { line, character } = source.getLineAndCharacterOfPosition(node.getStart(source));
  return { file: source.fileName, line: line + 1, column: character + 1 };
}

/** Imports of the catalogue's scope (`@scope/group`) that do not resolve: the packages are not installed. */
function unresolvedImports(
  api: typeof TS,
  checker: TS.TypeChecker,
  source: TS.SourceFile,
  scope: string,
): ScanFinding[] {
  const found: ScanFinding[] = [];
  const stack: TS.Node[] = [source];
  while (stack.length > 0) {
    const node = stack.pop()!;
    let specifier: TS.Node | undefined;
    if ((api.isImportDeclaration(node) || api.isExportDeclaration(node)) && node.moduleSpecifier)
      specifier = node.moduleSpecifier;
    else if (api.isImportTypeNode(node) && api.isLiteralTypeNode(node.argument))
      specifier = node.argument.literal;
    else if (api.isCallExpression(node) && node.expression.kind === api.SyntaxKind.ImportKeyword)
      specifier = node.arguments[0];
    else if (api.isExternalModuleReference(node)) specifier = node.expression;
    if (
      specifier &&
      api.isStringLiteralLike(specifier) &&
      (specifier.text === scope || specifier.text.startsWith(`${scope}/`))
    ) {
      const resolved = api.isImportTypeNode(node)
        ? checker.getTypeAtLocation(node).flags !== api.TypeFlags.Any
        : checker.getSymbolAtLocation(specifier) !== undefined;
      if (!resolved)
        found.push({
          ...locate(specifier),
          code: 'usage-package-unresolved',
          severity: 'error',
          message: `\`${specifier.text}\` does not resolve: install the group packages (npm install) before scanning.`,
        });
    }
    api.forEachChild(node, (child) => void stack.push(child));
  }
  return found;
}

/** Each function of the project -> the calls to it, for what its parameters receive. */
function callsOf(
  api: typeof TS,
  checker: TS.TypeChecker,
  sources: readonly TS.SourceFile[],
): Map<TS.Node, TS.CallLikeExpression[]> {
  const calls = new Map<TS.Node, TS.CallLikeExpression[]>();
  for (const source of sources) {
    const stack: TS.Node[] = [source];
    while (stack.length > 0) {
      const node = stack.pop()!;
      if (api.isCallExpression(node) || api.isNewExpression(node)) {
        const declaration = checker.getResolvedSignature(node)?.declaration;
        if (declaration && !declaration.getSourceFile().isDeclarationFile)
          calls.set(declaration, [...(calls.get(declaration) ?? []), node]);
      }
      api.forEachChild(node, (child) => void stack.push(child));
    }
  }
  return calls;
}
