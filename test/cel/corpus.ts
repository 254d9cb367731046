/**
 * The rule corpus of the agreement test: expressions over the order event of `model-fixture.ts`
 * (`message`) and its `Line` shape (`this`), by construct. Several can fail at run time on some payloads
 * (division by zero, overflow, an index or a timestamp out of range), to hold errors to the client's
 * handling as well as verdicts.
 */
export const ORDER_RULES: Record<string, string[]> = {
  arithmetic: [
    'message.amount > 0',
    'message.amount >= 0.0 && message.count < 100',
    'message.count == 3',
    'message.amount + 1.0 > message.count',
    'message.amount * 2.0 - message.count <= 10.0',
    'message.amount / 2.0 < message.amount || message.amount <= 0.0',
    '-message.amount < 1.0',
    'message.count / 0.0 > 0.0',
    'size(message.tags) + 1 > 2',
    'size(message.tags) * 3 - 1 != 5',
    'size(message.tags) % 2 == 0',
    '10 / size(message.tags) >= 3',
    '9223372036854775807 + size(message.tags) > 0',
    '-9223372036854775807 - size(message.tags) - 1 < 0',
    'message.count == 9007199254740991',
    'message.amount != 0 && message.count >= -2',
  ],
  comparison: [
    'message.currency < "F"',
    'message.currency >= "EUR" && message.currency <= "USD"',
    'has(message.note) && message.note < "m"',
    'has(message.note) && message.note > "\uffff"',
    'message.paid == (message.amount > 10.0)',
    'message.paid < true',
    'size(message.tags) == message.count',
    'size(message.scores) < message.amount',
  ],
  strings: [
    'message.currency + "!" == "EUR!"',
    'message.currency.startsWith("E") || message.currency.endsWith("D")',
    'message.currency.contains("U") == !message.paid',
    'message.currency.matches("^[A-Z]{3}$")',
    '!has(message.note) || message.note.matches("(?i)^te")',
    '!has(message.note) || !message.note.matches("[0-9]")',
    'has(message.note) && message.note.lowerAscii() == message.note',
    'has(message.note) && message.note.upperAscii() != message.note',
    '!has(message.note) || size(message.note) <= 3',
    '!has(message.note) || message.note.size() == 1',
    '!has(message.note) || message.note.charAt(1) != "😀"',
    '!has(message.note) || message.note.indexOf("e") < 2',
    '!has(message.note) || message.note.indexOf("e", 1) != 2',
    '!has(message.note) || message.note.lastIndexOf(",") > 0',
    '!has(message.note) || message.note.replace(",", ";").contains(",")',
    '!has(message.note) || message.note.replace("a", "aa", 1).size() > 2',
    '!has(message.note) || message.note.split(",").size() < 3',
    '!has(message.note) || message.note.split(",", 2).size() == 1',
    '!has(message.note) || message.note.substring(1) != ""',
    '!has(message.note) || message.note.substring(0, 2) == "a😀".substring(0, 2)',
    '!has(message.note) || message.note.trim() == message.note',
    'message.tags.join(",").size() < 8',
    'message.tags.join().startsWith("E")',
  ],
  presence: [
    'has(message.note) && message.note != ""',
    '!has(message.note) || message.note != ""',
    'has(message.note) ? message.note.size() > 1 : message.paid',
    'has(message.seller) && has(message.seller.email) && message.seller.email.contains("@")',
    '!has(message.seller) || !has(message.seller.email) || message.seller.email.endsWith(".z")',
    'has(message.extra) || message.paid',
  ],
  macros: [
    'message.lines.all(l, l.qty > 0.0)',
    'message.lines.all(l, !has(l.sku) || l.sku.startsWith("A"))',
    'message.lines.exists(l, l.price > 10.0)',
    'message.lines.exists_one(l, l.qty == 1.0)',
    'message.lines.filter(l, l.qty > 1.0).size() < 2',
    'message.lines.map(l, l.price * l.qty).all(t, t >= 0.0)',
    'message.lines.map(l, l.qty > 0.0, l.price).exists(p, p > 1.0)',
    'message.tags.all(t, t.size() < 4)',
    'message.tags.exists(t, t == message.currency)',
    'message.scores.all(s, s != 0.0)',
    'message.scores.exists_one(s, s > 0.0)',
    'message.tags.map(t, size(t)).all(n, 10 / n > 2)',
    'message.tags.all(t, 10 / size(t) > 2)',
    'message.tags.exists(t, 10 / size(t) > 2)',
    'message.tags.filter(t, 10 / size(t) > 2).size() == 0',
  ],
  membership: [
    'message.currency in ["EUR", "USD"]',
    'message.count in [1.0, 2.0, 3.0]',
    'message.count in [0, 1, 2]',
    'size(message.tags) in [0, 1]',
    '"EUR" in message.tags',
    'message.amount in message.scores',
  ],
  indexing: [
    'message.scores[0] >= 0.0',
    'message.scores[0] >= 0.0 || message.paid',
    'message.paid && message.scores[0] >= 0.0',
    'size(message.lines) == 0 || message.lines[0].qty > 0.0',
  ],
  ternary: [
    'message.paid ? message.amount > 0.0 : message.amount == 0.0',
    '(message.count > 5.0 ? "big" : "small") == "big"',
    '(message.scores.size() > 0 ? message.scores[0] : 0.0) < 5.0',
  ],
  timestamps: [
    'timestamp(message.placed_at) < timestamp("2025-01-01T00:00:00Z")',
    'timestamp(message.placed_at) == timestamp("2024-01-31T10:00:00Z")',
    'timestamp(message.placed_at) != timestamp("2024-01-31T09:00:00.1+01:00")',
    '!has(message.shipped_at) || timestamp(message.shipped_at) >= timestamp(message.placed_at)',
    'has(message.shipped_at) && timestamp(message.shipped_at) > timestamp(message.placed_at) || message.paid',
    'timestamp(message.placed_at) in [timestamp("2024-01-31T10:00:00Z")]',
  ],
};

/** Rules of the `Line` shape, over `this`. */
export const LINE_RULES: string[] = [
  'this.qty > 0.0',
  'this.qty * this.price < 100.0',
  '!has(this.sku) || this.sku.size() == 3',
  'has(this.sku) ? this.sku.matches("^[A-Z]") : this.qty == 1.0',
];

/**
 * Rules of `ORDER_RULES` that no payload breaks, each for a reason only the test data finds (the tree
 * alone does not say): the lint warns of them, and `invalid` names them (`rule_unbreakable`).
 */
export const NEVER_BROKEN: ReadonlySet<string> = new Set([
  // int64 overflow is an evaluation error, which lets the payload pass.
  '9223372036854775807 + size(message.tags) > 0',
  '-9223372036854775807 - size(message.tags) - 1 < 0',
  // Half a positive amount is less than it; a JSON number is never NaN or infinite.
  'message.amount / 2.0 < message.amount || message.amount <= 0.0',
  // The enum is EUR, USD, GBP: every value is in the range, and three capitals.
  'message.currency >= "EUR" && message.currency <= "USD"',
  'message.currency.matches("^[A-Z]{3}$")',
  // `charAt` gives one UTF-16 unit (decision 0126), never the two of an emoji.
  '!has(message.note) || message.note.charAt(1) != "😀"',
]);
