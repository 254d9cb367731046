import { innermost } from '../catalogue-index.js';
import { code, type LintReport, type LintRule } from '../rule.js';

/** Words of a field name that say it holds personal data, and what kind. */
const PERSONAL: readonly [RegExp, string][] = [
  [/(^|_)e_?mails?(_address(es)?)?($|_)/, 'an e-mail address'],
  [/(^|_)(phone|mobile|landline|telephone)(_numbers?)?($|_)/, 'a phone number'],
  [
    /(^|_)(first|last|given|family|full|middle|maiden)_names?($|_)|(^|_)(surname|forename)s?($|_)/,
    "a person's name",
  ],
  [
    /(^|_)(postal_|home_|billing_|street_)?address(es)?($|_)|(^|_)(post_?code|zip_?code)s?($|_)/,
    'an address',
  ],
  [/(^|_)(birth_?date|date_of_birth|dob|birthday)($|_)/, 'a birth date'],
  [/(^|_)(iban|sort_code|bank_account(_number)?|account_holder(_name)?|card_number)($|_)/, 'bank details'],
  [
    /(^|_)(national_insurance(_number)?|ni_number|nino|passport(_number)?|ssn|tax_id)($|_)/,
    'a national identifier',
  ],
];

/** Name endings that make the field about the data, not the data itself (`email_verified`, `address_type`). */
const ABOUT_THE_DATA =
  /_(id|ids|type|types|count|status|verified|consent|preference|preferences|format|source|changed|updated_at)$/;

/** Which personal data a field name suggests, or undefined. */
function personalDataOf(name: string): string | undefined {
  if (ABOUT_THE_DATA.test(name)) return undefined;
  return PERSONAL.find(([pattern]) => pattern.test(name))?.[1];
}

/** A field named like personal data (e-mail, phone, name, address, birth date, bank details) without a classification. */
export const personalDataUnclassified: LintRule = {
  id: 'personal-data-unclassified',
  description:
    'A field named like personal data (e-mail, phone, name, address, birth date, bank details) has no `classification`: privacy reviews and consumers cannot see it.',
  severity: 'warning',
  hint: 'Add `classification: personal` (or `sensitive` for bank details, birth dates and national identifiers), or `public`/`internal` if it holds no personal data.',
  check(ctx) {
    const reports: LintReport[] = [];
    for (const use of ctx.index.uses) {
      if (use.field.classification) continue;
      // Only text holds these; a boolean `has_email` or a number says something about them.
      const type = innermost(use.field.type);
      if (type.kind !== 'string') continue;
      const what = personalDataOf(use.field.name);
      if (!what) continue;
      reports.push({
        message: `Field ${code(use.field.name)} of ${use.owner.kind} ${code(use.owner.name)} looks like ${what} but has no classification.`,
        location: use.field.source,
        subject: use.subject,
      });
    }
    return reports;
  },
};
