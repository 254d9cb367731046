/**
 * The whole loop, as a team would run it, against a real Verdaccio on a free loopback port: build the
 * seed catalogue, publish all group packages, install one in a fresh consumer project with plain npm,
 * type-check and validate with it; then a compatible change (minor), and a breaking one (major) that a
 * consumer pinned to ^1 never receives. Nothing of the repository is modified: the catalogue is copied
 * into a temporary git repository (`eventry version` finds releases through git).
 */
import { cpSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RUNTIME_VERSION } from '../../../generators/emit/package/runtime-package.js';
import {
  type RegistryProcess,
  spawnRegistryProcess,
} from '../../../scripts/npm-registry/registry-process.js';
import { compiledToolkitPath, REPO, tempDir } from '../../helpers.js';
import { editFile, installedVersion, ok, World } from './e2e-helpers.js';

const SCOPE = '@platform-events';
const GROUP = 'account';
const PACKAGE = `${SCOPE}/${GROUP}`;
/** A second group, installed beside the first, and one of its events. */
const OTHER = `${SCOPE}/billing`;
const BILLING_EVENT = 'billable_reading.create.failed-v1';
const GROUP_COUNT = 19;
/** The groups and the one run time package they all depend on. */
const PACKAGE_COUNT = GROUP_COUNT + 1;
const RUNTIME = `${SCOPE}/runtime`;

describe('publish to a real registry, and consume from it', { timeout: 180_000 }, () => {
  const work = tempDir('eventry-e2e-');
  const repo = join(work, 'repo');
  const consumer = join(work, 'consumer');
  const packages = join(repo, 'packages');
  let registry: RegistryProcess;
  let world: World;
  const publish = (...extra: string[]) =>
    world.eventry(['publish', '--registry', registry.url, '--out', 'packages', ...extra], repo);
  const build = () =>
    ok(world.eventry(['build', '--catalogue', 'catalogue', '--out', 'packages'], repo), 'eventry build');
  const publishedVersions = (name: string): string[] => {
    const view = world.npm(['view', name, 'versions', '--json', '--prefer-online'], work);
    const value = JSON.parse(view.stdout) as string | string[];
    return typeof value === 'string' ? [value] : value;
  };

  beforeAll(async () => {
    registry = await spawnRegistryProcess(
      compiledToolkitPath('scripts/npm-registry.js'),
      join(work, 'storage'),
    );
    const npmrc = join(work, 'user.npmrc');
    writeFileSync(
      npmrc,
      `${registry.url.replace(/^http:/, '')}:_authToken=dummy\n${SCOPE}:registry=${registry.url}\n`,
    );
    world = new World(npmrc, registry.url);

    mkdirSync(repo);
    cpSync(join(REPO, 'catalogue'), join(repo, 'catalogue'), { recursive: true });
    world.git(['init', '-q', '-b', 'main'], repo);
    build();
    // The built packages as released: `eventry version` bumps from the last commit that set a version.
    writeFileSync(
      join(repo, '.gitignore'),
      'packages/.eventry-build-state.json\npackages/.eventry-build-state/\n',
    );
    world.git(['add', '-A'], repo);
    world.git(['commit', '-q', '-m', 'release 1.0.0'], repo);

    mkdirSync(consumer);
    writeFileSync(
      join(consumer, 'package.json'),
      '{ "name": "consumer", "private": true, "type": "module" }\n',
    );
    // The consumer's project .npmrc sends only the scope to the local registry; no token needed to read.
    writeFileSync(join(consumer, '.npmrc'), `${SCOPE}:registry=${registry.url}\n`);
  }, 120_000);

  afterAll(async () => {
    await registry?.stop();
    rmSync(work, { recursive: true, force: true });
  });

  it(`builds ${GROUP_COUNT} publishable group packages, each recording the hash of its catalogue content`, () => {
    const manifests = ['account', 'billing', 'meterpoints'].map(
      (slug) =>
        JSON.parse(readFileSync(join(packages, slug, 'package.json'), 'utf8')) as Record<string, unknown>,
    );
    for (const manifest of manifests) {
      expect(manifest).toMatchObject({
        version: '1.0.0',
        eventry: { sourceHash: expect.stringMatching(/^[0-9a-f]{64}$/) },
      });
      expect(manifest.private).toBeUndefined();
      expect((manifest.dependencies as Record<string, string>)[RUNTIME]).toMatch(/^\^\d+\.\d+\.\d+$/);
    }
    const runtime = JSON.parse(readFileSync(join(packages, 'runtime', 'package.json'), 'utf8'));
    expect(runtime).toMatchObject({ name: RUNTIME, eventry: { runtime: true } });
  });

  it('after a run that died half-way, the dry run lists what is missing and the real run publishes only that', () => {
    // Two packages went out before the "crash".
    for (const slug of ['account', 'billing']) {
      ok(world.npm(['publish', '--registry', registry.url], join(packages, slug)), `npm publish ${slug}`);
    }
    const dry = publish('--dry-run');
    expect(dry.status).toBe(0);
    expect(dry.stdout.match(/^would publish /gm)).toHaveLength(PACKAGE_COUNT - 2);
    // The run time is listed, and goes, first: the groups depend on it.
    expect(dry.stdout.match(/^would publish (\S+)@/m)?.[1]).toBe(RUNTIME);
    expect(dry.stdout).toContain(`up to date  ${PACKAGE}@1.0.0`);
    expect(dry.stdout).toMatch(/dry run: 18 to publish, 2 up to date; nothing was published/);
    expect(world.npm(['view', `${SCOPE}/meterpoints`, 'version', '--prefer-online'], work).status).not.toBe(
      0,
    );

    const real = publish();
    expect(real.stderr).toBe('');
    expect(real.status).toBe(0);
    // Every group not published yet at 1.0.0, and the run time at its own version.
    expect(real.stdout.match(/^published {3}@platform-events\/\S+@1\.0\.0 \(tag latest/gm)).toHaveLength(
      PACKAGE_COUNT - 3,
    );
    expect(real.stdout).toContain(`published   ${RUNTIME}@${RUNTIME_VERSION} (tag latest`);
    expect(real.stdout.match(/^published {3}(\S+)@/m)?.[1]).toBe(RUNTIME);
    expect(real.stdout).toMatch(/eventry: 18 published, 2 up to date/);
    expect(publishedVersions(`${SCOPE}/meterpoints`)).toEqual(['1.0.0']);
    expect(publishedVersions(RUNTIME)).toEqual([RUNTIME_VERSION]);

    const again = publish();
    expect(again.status).toBe(0);
    expect(again.stdout).toMatch(/eventry: 0 published, 20 up to date/);
  });

  it('refuses to publish a package whose content differs from the published same version, and publishes nothing', () => {
    // The catalogue changed but nobody ran `eventry version`: publish builds the change under 1.0.0.
    const source = join(repo, 'catalogue', 'groups', 'billing.yaml');
    const good = readFileSync(source, 'utf8');
    editFile(source, (text) => text.replace(/^ {2}title: (.*)$/m, '  title: $1 (renamed)'));
    try {
      const refused = publish();
      expect(refused.status).toBe(1);
      expect(refused.stderr).toContain(
        `eventry: conflict: ${SCOPE}/billing@1.0.0 is already published with different content (`,
      );
      expect(refused.stderr).toContain('A published version never changes: run `eventry version`');
      expect(refused.stderr).toMatch(/1 conflict\(s\): nothing was published/);
    } finally {
      writeFileSync(source, good);
    }
    expect(publish().stdout).toMatch(/0 published, 20 up to date/);
  });

  it('installs in a fresh consumer with plain npm; types check, and a wrong field type fails tsc', () => {
    ok(world.npm(['install', `${PACKAGE}@^1`, `${OTHER}@^1`, '--prefer-online'], consumer), 'npm install');
    expect(installedVersion(consumer, PACKAGE)).toBe('1.0.0');
    // One copy of the run time for both groups, at the top of node_modules.
    expect(installedVersion(consumer, RUNTIME)).toBe(RUNTIME_VERSION);
    const lock = JSON.parse(readFileSync(join(consumer, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, unknown>;
    };
    expect(Object.keys(lock.packages).filter((path) => path.endsWith(`node_modules/${RUNTIME}`))).toEqual([
      `node_modules/${RUNTIME}`,
    ]);
    writeConsumerTypeChecks(consumer);
    const good = world.tsc('tsconfig.good.json', consumer);
    expect(good.stdout + good.stderr).toBe('');
    expect(good.status).toBe(0);
    const bad = world.tsc('tsconfig.bad.json', consumer);
    expect(bad.status).not.toBe(0);
    expect(bad.stdout).toMatch(
      /^bad\.ts\(2,\d+\): error TS2322: Type 'number' is not assignable to type 'string'\.$/m,
    );
  });

  it('property-tests a handler with `arbitrary`, tests its error path with `invalid`, and type-checks that', () => {
    // fast-check is the consumer's own dev dependency (an optional peer of the run time): linked, as the
    // test has no other registry than the local one.
    symlinkSync(
      join(REPO, 'node_modules', 'fast-check'),
      join(consumer, 'node_modules', 'fast-check'),
      'dir',
    );
    writeFileSync(join(consumer, 'handler.ts'), TESTING_TS);
    writeFileSync(join(consumer, 'tsconfig.testing.json'), consumerTsconfig('handler.ts'));
    const typed = world.tsc('tsconfig.testing.json', consumer);
    expect(typed.stdout + typed.stderr).toBe('');
    expect(typed.status).toBe(0);
    writeFileSync(join(consumer, 'handler.mjs'), TESTING_ESM);
    const result = ok(world.node('handler.mjs', consumer), 'node handler.mjs');
    expect(result.stderr).toBe('');
    const report = JSON.parse(result.stdout) as Record<string, unknown>;
    expect(report).toMatchObject({
      propertyRuns: 200,
      invalidAllRejectedAsPromised: true,
      sameFakeTwice: true,
    });
    expect(report.invalidCount).toBeGreaterThan(5);
    // The bug a property test exists for: a handler that assumes an optional field is there.
    expect(report.brokenHandlerCounterexample).toEqual({
      account_number: expect.any(String),
      account_user_emails: [],
    });
  });

  it('runs the installed validator from ESM: a valid payload passes, an invalid one gets the platform error body', () => {
    writeFileSync(join(consumer, 'validate.mjs'), VALIDATE_ESM);
    const result = ok(world.node('validate.mjs', consumer), 'node validate.mjs');
    expect(JSON.parse(result.stdout)).toEqual(EXPECTED_VALIDATION);
  });

  it('runs the installed validator from CommonJS too (`require`), with the same error body', () => {
    // The packages are ESM only; Node >= 20.19 loads them with require() (require(esm)), so a CommonJS
    // consumer needs no second build. Should a package ship a `require` condition, this runs that.
    writeFileSync(join(consumer, 'validate.cjs'), VALIDATE_CJS);
    const result = ok(world.node('validate.cjs', consumer), 'node validate.cjs');
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.stdout)).toEqual(EXPECTED_VALIDATION);
  });

  it('shares one EventValidationError class across two installed groups (ESM and CommonJS)', () => {
    writeFileSync(join(consumer, 'instanceof.mjs'), INSTANCEOF_ESM);
    writeFileSync(join(consumer, 'instanceof.cjs'), INSTANCEOF_CJS);
    for (const file of ['instanceof.mjs', 'instanceof.cjs']) {
      const result = ok(world.node(file, consumer), `node ${file}`);
      expect(result.stderr, file).toBe('');
      expect(JSON.parse(result.stdout), file).toEqual({
        thrownByAccountIsBillingsClass: true,
        sameClass: true,
        code: 'event_failed_validation',
      });
    }
  });

  it('the matchers of two installed groups work together after expect.extend with both', () => {
    writeFileSync(join(consumer, 'matchers.mjs'), matchersScript(join(REPO, 'node_modules', 'expect')));
    const result = ok(world.node('matchers.mjs', consumer), 'node matchers.mjs');
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.stdout)).toEqual({
      accountValid: true,
      billingValid: true,
      accountInvalidFails: true,
      unknownNamesBoth: true,
    });
  });

  it('an added optional field becomes a minor version that `npm update` brings to the consumer', () => {
    editFile(join(repo, 'catalogue/groups/account.yaml'), (text) =>
      text.replace(
        '      is_imported: {type: boolean}\n',
        '      is_imported: {type: boolean}\n      signup_channel: {type: string, description: Where the account was opened.}\n',
      ),
    );
    build();
    const version = ok(world.eventry(['version'], repo), 'eventry version');
    expect(version.stdout).toContain(`${PACKAGE}: 1.0.0 → 1.1.0 (minor`);
    const published = ok(publish(), 'eventry publish');
    expect(published.stdout.match(/^published /gm)).toEqual(['published ']);
    expect(published.stdout).toContain(`published   ${PACKAGE}@1.1.0 (tag latest`);
    expect(published.stdout).toMatch(/1 published, 19 up to date/);
    world.git(['add', '-A'], repo);
    world.git(['commit', '-q', '-m', 'account 1.1.0'], repo);

    ok(world.npm(['update', '--prefer-online'], consumer), 'npm update');
    expect(installedVersion(consumer, PACKAGE)).toBe('1.1.0');
    // The new field is in the installed types.
    writeFileSync(
      join(consumer, 'good.ts'),
      TYPES_GOOD.replace('is_imported: true', "is_imported: true, signup_channel: 'web'"),
    );
    const typed = world.tsc('tsconfig.good.json', consumer);
    expect(typed.stdout + typed.stderr).toBe('');
    expect(typed.status).toBe(0);
  });

  it('`eventry diff npm:<pkg>@<version> HEAD` says what changed for consumers of the release', () => {
    const diff = world.eventry(['diff', `npm:${PACKAGE}@1.0.0`, 'HEAD', '--format', 'json'], repo);
    expect(diff.stderr).toBe('');
    expect(diff.status).toBe(0);
    expect(JSON.parse(diff.stdout)).toMatchObject({
      changes: [
        {
          group: GROUP,
          package: PACKAGE,
          event: 'account.created-v1',
          attr: 'signup_channel',
          rule: 'optional-field-added',
          severity: 'non-breaking',
          breaks: 'none',
          detail: 'New field `signup_channel` (`string`, optional).',
          location: { file: 'catalogue/groups/account.yaml' },
        },
      ],
      packages: [{ name: PACKAGE, from: '1.0.0', to: '1.1.0', bump: 'minor' }],
    });
  });

  it('a breaking change (new event version, old one removed) is a major; the consumer pinned to ^1 stays on 1.x', () => {
    editFile(join(repo, 'catalogue/groups/account.yaml'), (text) =>
      text.replace(
        / {2}account\.created-v1:\n {4}fields:\n/,
        '  account.created-v2:\n    fields:\n      account_id: {type: integer, required: true}\n',
      ),
    );
    build();
    const version = ok(world.eventry(['version'], repo), 'eventry version');
    expect(version.stdout).toContain(`${PACKAGE}: 1.1.0 → 2.0.0 (major`);
    const published = ok(publish(), 'eventry publish');
    expect(published.stdout).toContain(`published   ${PACKAGE}@2.0.0 (tag latest`);
    expect(published.stdout).toMatch(/1 published, 19 up to date/);
    world.git(['add', '-A'], repo);
    world.git(['commit', '-q', '-m', 'account 2.0.0'], repo);

    ok(world.npm(['update', '--prefer-online'], consumer), 'npm update');
    expect(installedVersion(consumer, PACKAGE)).toBe('1.1.0');
    expect(publishedVersions(PACKAGE)).toEqual(['1.0.0', '1.1.0', '2.0.0']);
    const tags = JSON.parse(
      world.npm(['view', PACKAGE, 'dist-tags', '--json', '--prefer-online'], work).stdout,
    );
    expect(tags).toEqual({ latest: '2.0.0' });

    const diff = world.eventry(['diff', `npm:${PACKAGE}@1.1.0`, 'HEAD', '--format', 'json'], repo);
    expect(diff.status).toBe(1);
    const report = JSON.parse(diff.stdout) as {
      changes: { event: string; rule: string; severity: string }[];
    };
    expect(report.changes.map(({ event, rule, severity }) => `${severity} ${rule} ${event}`)).toEqual([
      'breaking event-removed-without-deprecation account.created-v1',
      'non-breaking event-added account.created-v2',
    ]);
    expect(JSON.parse(diff.stdout).packages).toEqual([
      { name: PACKAGE, from: '1.1.0', to: '2.0.0', bump: 'major' },
    ]);
  });

  it('--json reports every package with its version, sizes and group content hash', () => {
    const result = ok(publish('--dry-run', '--json'), 'eventry publish --dry-run --json');
    const report = JSON.parse(result.stdout) as {
      dryRun: boolean;
      packages: {
        name: string;
        version: string;
        action: string;
        size: number;
        unpackedSize: number;
        sourceHash: string;
      }[];
      published: unknown[];
    };
    expect(report.dryRun).toBe(true);
    expect(report.published).toEqual([]);
    expect(report.packages).toHaveLength(PACKAGE_COUNT);
    expect(report.packages[0]?.name).toBe(RUNTIME);
    for (const pkg of report.packages) {
      expect(pkg.action).toBe('up-to-date');
      expect(pkg.size).toBeGreaterThan(1000);
      expect(pkg.unpackedSize).toBeGreaterThan(pkg.size);
      expect(pkg.sourceHash).toMatch(/^[0-9a-f]{64}$/);
    }
    expect(report.packages.find((pkg) => pkg.name === PACKAGE)?.version).toBe('2.0.0');
  });
});

/** A strict consumer tsconfig for one file. */
const consumerTsconfig = (file: string) =>
  `${JSON.stringify({
    compilerOptions: {
      module: 'nodenext',
      moduleResolution: 'nodenext',
      target: 'es2022',
      strict: true,
      noEmit: true,
      types: [],
    },
    files: [file],
  })}\n`;

/** A consumer's TypeScript: correct use, and one wrong field type. */
function writeConsumerTypeChecks(consumer: string): void {
  const tsconfig = consumerTsconfig;
  writeFileSync(join(consumer, 'tsconfig.good.json'), tsconfig('good.ts'));
  writeFileSync(join(consumer, 'tsconfig.bad.json'), tsconfig('bad.ts'));
  writeFileSync(join(consumer, 'good.ts'), TYPES_GOOD);
  writeFileSync(join(consumer, 'bad.ts'), TYPES_BAD);
}

/** A consumer's handler and its tests with the package's test data, typed (checked with tsc). */
const TESTING_TS = `import * as fc from 'fast-check';
import { type AccountCreatedV1, validate } from '${PACKAGE}';
import { arbitrary, fake, invalid, type InvalidPayload } from '${PACKAGE}/testing';

export function handle(payload: AccountCreatedV1): string {
  return payload.account_number.toUpperCase();
}
const sample: AccountCreatedV1 = fake('account.created-v1', { seed: 1, variant: 'full' });
fc.assert(fc.property(arbitrary('account.created-v1'), (payload) => typeof handle(payload) === 'string'));
const bad: InvalidPayload[] = invalid('account.created-v1');
for (const one of bad) {
  const result = validate('account.created-v1', one.payload);
  if (result.valid || result.error.errors[0]?.code !== one.error.code) throw new Error(one.description);
}
export default sample;
`;
/** The same, run: a property test, the error path, and a handler with a bug the property test finds. */
const TESTING_ESM = `import * as fc from 'fast-check';
import { validate } from '${PACKAGE}';
import { arbitrary, fake, invalid } from '${PACKAGE}/testing';

// The handler under test: validates first, answers 400 with the platform's body.
function handle(payload) {
  const result = validate('account.created-v1', payload);
  if (!result.valid) return { status: 400, body: result.error };
  return { status: 200, body: { account: payload.account_number } };
}
let propertyRuns = 0;
fc.assert(
  fc.property(arbitrary('account.created-v1'), (payload) => {
    propertyRuns++;
    return handle(payload).status === 200;
  }),
  { numRuns: 200 },
);
const bad = invalid('account.created-v1');
const invalidAllRejectedAsPromised = bad.every(({ payload, error }) => {
  const answer = handle(payload);
  return answer.status === 400 && answer.body.errors.length === 1 &&
    answer.body.errors[0].code === error.code && answer.body.errors[0].attr === error.attr;
});
// A handler that reads an optional field as if it were always there: the shrunk counterexample is the
// minimal payload.
const broken = fc.check(
  fc.property(arbitrary('account.created-v1'), (payload) => payload.is_imported !== undefined),
  { seed: 7 },
);
console.log(JSON.stringify({
  propertyRuns,
  invalidCount: bad.length,
  invalidAllRejectedAsPromised,
  sameFakeTwice: JSON.stringify(fake('account.created-v1', { seed: 3 })) === JSON.stringify(fake('account.created-v1', { seed: 3 })),
  brokenHandlerCounterexample: broken.counterexample[0],
}));
`;
// What a consumer writes against the group package's API: interfaces per event version, `validate`.
const TYPES_GOOD = `import { type AccountCreatedV1, validate } from '${PACKAGE}';
const event: AccountCreatedV1 = { account_number: 'A-1', account_user_emails: ['a@example.com'], is_imported: true };
const result = validate('account.created-v1', event);
if (!result.valid) console.log(result.error.errors.map((item) => item.attr));
export default event;
`;
const TYPES_BAD = `import type { AccountCreatedV1 } from '${PACKAGE}';
const event: AccountCreatedV1 = { account_number: 42, account_user_emails: [] };
export default event;
`;
const VALIDATE_ESM = `import { validate } from '${PACKAGE}';
const valid = validate('account.created-v1', { account_number: 'A-1', account_user_emails: ['a@example.com'] });
const invalid = validate('account.created-v1', {
  account_number: 'A-1',
  account_user_emails: 'a@example.com',
  is_imported: 'yes',
  extra: 1,
});
console.log(JSON.stringify({ valid, invalid }));
`;
/** `assertEvent` of one group throws; `instanceof` the class the other group exports. */
const INSTANCEOF_BODY = `let thrown;
try {
  account.assertEvent('account.created-v1', {});
} catch (error) {
  thrown = error;
}
console.log(JSON.stringify({
  thrownByAccountIsBillingsClass: thrown instanceof billing.EventValidationError,
  sameClass: account.EventValidationError === billing.EventValidationError,
  code: thrown.code,
}));
`;
const INSTANCEOF_ESM = `import * as account from '${PACKAGE}';
import * as billing from '${OTHER}';
${INSTANCEOF_BODY}`;
const INSTANCEOF_CJS = `const account = require('${PACKAGE}');
const billing = require('${OTHER}');
${INSTANCEOF_BODY}`;
/** jest's \`expect\` (the toolkit's copy), extended with the matchers of both groups, one after the other. */
const matchersScript = (expectModule: string) => `import { createRequire } from 'node:module';
import { matchers as accountMatchers } from '${PACKAGE}/matchers';
import { matchers as billingMatchers } from '${OTHER}/matchers';
const require = createRequire(import.meta.url);
const { expect } = require(${JSON.stringify(expectModule)});
expect.extend(accountMatchers);
expect.extend(billingMatchers);
const fails = (run) => {
  try {
    run();
    return false;
  } catch (error) {
    return error.message;
  }
};
const unknown = fails(() => expect({}).toBeValidEvent('account.creatd-v1'));
console.log(JSON.stringify({
  accountValid: !fails(() => expect({ account_number: 'A-1', account_user_emails: [] }).toBeValidEvent('account.created-v1')),
  billingValid: !fails(() => expect(require('${OTHER}/examples/${BILLING_EVENT}.json').full).toBeValidEvent('${BILLING_EVENT}')),
  accountInvalidFails: Boolean(fails(() => expect({ account_number: 5 }).toBeValidEvent('account.created-v1'))),
  unknownNamesBoth: unknown.includes('${PACKAGE} or ${OTHER}') || unknown.includes('${OTHER} or ${PACKAGE}'),
}));
`;
const VALIDATE_CJS = `const { validate } = require('${PACKAGE}');
${VALIDATE_ESM.split('\n').slice(1).join('\n')}`;
/** The platform's 400 body, exactly. */
const EXPECTED_VALIDATION = {
  valid: { valid: true },
  invalid: {
    valid: false,
    error: {
      detail: 'The payload is not a valid `account.created-v1` event: 3 problems.',
      code: 'event_failed_validation',
      errors: [
        {
          detail: '`extra` is not a documented field; only documented fields may be sent.',
          code: 'unknown_field',
          attr: 'extra',
        },
        {
          detail: '`account_user_emails` must be an array, not a string.',
          code: 'invalid_type',
          attr: 'account_user_emails',
        },
        {
          detail: '`is_imported` must be a boolean, not a string.',
          code: 'invalid_type',
          attr: 'is_imported',
        },
      ],
    },
  },
};
