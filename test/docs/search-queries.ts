/**
 * Queries people type into the portal's search box or an agent passes to MCP's `search_events`, each
 * with the seed catalogue's events it must return in its top 5 (in any order). Words of keys, partial
 * words, plurals, typos, field names whole or as words, nested paths, shape names, versions, a key
 * typed whole, a group's name. Run through the browser's module (test/docs/search.test.ts) and through
 * the MCP tool call (test/mcp/search.test.ts).
 */
export interface SearchCase {
  query: string;
  /** What kind of typing it stands for (the report groups the hit rate by it). */
  kind: 'key words' | 'partial' | 'plural' | 'typo' | 'field' | 'shape' | 'version' | 'whole key' | 'group';
  top5: readonly string[];
}

export const SEARCH_CASES: readonly SearchCase[] = [
  {
    query: 'entry posted',
    kind: 'key words',
    top5: ['billing.ledger.entry_posted-v1', 'billing.ledger.entry_posted-v2'],
  },
  {
    query: 'ledger entry posted',
    kind: 'key words',
    top5: ['billing.ledger.entry_posted-v1', 'billing.ledger.entry_posted-v2'],
  },
  {
    query: 'posted entry ledger',
    kind: 'key words',
    top5: ['billing.ledger.entry_posted-v1', 'billing.ledger.entry_posted-v2'],
  },
  {
    query: 'ledger entry removed',
    kind: 'key words',
    top5: ['billing.ledger.entry_removed-v1', 'billing.ledger.entry_removed-v2'],
  },
  { query: 'password changed', kind: 'key words', top5: ['account_user.password_changed-v1'] },
  { query: 'access token issued', kind: 'key words', top5: ['auth-server.access-token.issued-v1'] },
  {
    query: 'smart meter read permission',
    kind: 'key words',
    top5: ['account.smart-meter-read-permission-changed-v1'],
  },
  { query: 'meter alert opened', kind: 'key words', top5: ['accounts.meter-alert.opened-v1'] },
  {
    query: 'import process dry run',
    kind: 'key words',
    top5: ['data_import.import_process.dry_run_complete-v1', 'data_import.import_process.dry_run_error-v1'],
  },
  {
    query: 'push notification expired token',
    kind: 'key words',
    top5: ['comms.push-notification.received-unregistered-or-expired-token-v1'],
  },
  {
    query: 'gas change of supply gain',
    kind: 'key words',
    top5: ['industry.gas.change_of_supply.gain.initiated-v1'],
  },
  { query: 'late payment fee waived', kind: 'key words', top5: ['late_payment_fee_waived-v1'] },
  { query: 'revok', kind: 'partial', top5: ['agreement.revoked-v1', 'agreement.revoked-v2'] },
  { query: 'pass reset', kind: 'partial', top5: ['account_user.password_reset_requested-v1'] },
  { query: 'dunning pau', kind: 'partial', top5: ['dunning_path_paused-v1'] },
  {
    query: 'ledger entries posted',
    kind: 'plural',
    top5: ['billing.ledger.entry_posted-v1', 'billing.ledger.entry_posted-v2'],
  },
  {
    query: 'entries removed',
    kind: 'plural',
    top5: ['billing.ledger.entry_removed-v1', 'billing.ledger.entry_removed-v2'],
  },
  { query: 'logins denied', kind: 'plural', top5: ['auth_server.account_user.login_denied-v1'] },
  {
    query: 'rebate',
    kind: 'plural',
    top5: [
      'billing.rebate.accepted-v1',
      'billing.rebate.created-v1',
      'billing.rebate.declined-v1',
      'billing.rebate.updated-v1',
    ],
  },
  { query: 'approval requests approved', kind: 'plural', top5: ['approvals.approval_request.approved-v1'] },
  { query: 'conversation snoozed', kind: 'key words', top5: ['ink.conversation.snoozed-v1'] },
  { query: 'agrement revoked', kind: 'typo', top5: ['agreement.revoked-v1', 'agreement.revoked-v2'] },
  { query: 'pasword reset requested', kind: 'typo', top5: ['account_user.password_reset_requested-v1'] },
  {
    query: 'colection process withdrawn',
    kind: 'typo',
    top5: ['collection_process.withdrawn-v1', 'collection_process.withdrawn-v2'],
  },
  {
    query: 'ledger entry psoted',
    kind: 'typo',
    top5: ['billing.ledger.entry_posted-v1', 'billing.ledger.entry_posted-v2'],
  },
  { query: 'phishing reprot dismissed', kind: 'typo', top5: ['ink.messages.phishing-report-dismissed-v1'] },
  { query: 'source_reason', kind: 'field', top5: ['billing.ledger.entry_removed-v2'] },
  { query: 'source reason', kind: 'field', top5: ['billing.ledger.entry_removed-v2'] },
  { query: 'entry.source_reason', kind: 'field', top5: ['billing.ledger.entry_removed-v2'] },
  {
    query: 'supply_point_id',
    kind: 'field',
    top5: [
      'billing.charging.supply-point.triggered-v1',
      'charging.priming.errored-v1',
      'agreement.rollover.completed-v1',
    ],
  },
  { query: 'rolled_on_to_agreement_valid_from', kind: 'field', top5: ['agreement.rollover.completed-v1'] },
  { query: 'LedgerEntry', kind: 'shape', top5: ['billing.ledger.entry_posted-v2'] },
  { query: 'ledger entry removal', kind: 'shape', top5: ['billing.ledger.entry_removed-v2'] },
  { query: 'PsrRecord', kind: 'shape', top5: ['account_user.psr_records_updated-v1'] },
  { query: 'entry posted v2', kind: 'version', top5: ['billing.ledger.entry_posted-v2'] },
  { query: 'billing document issued v2', kind: 'version', top5: ['billing.billing_document.issued-v2'] },
  {
    query: 'delinquent debt position changed v2',
    kind: 'version',
    top5: ['delinquent_debt.position_changed-v2'],
  },
  { query: 'billing.ledger.entry_posted-v1', kind: 'whole key', top5: ['billing.ledger.entry_posted-v1'] },
  { query: 'agreement.revoked', kind: 'whole key', top5: ['agreement.revoked-v1', 'agreement.revoked-v2'] },
  { query: 'authentication logged in', kind: 'group', top5: ['auth_server.account_user.logged_in-v1'] },
  {
    query: 'field works water meter exchange',
    kind: 'group',
    top5: ['fieldworks.water_meter_exchange.completed-v1'],
  },
];
