// Card numbers as PCI DSS lets them be shown (decision 166): masked to their first six and last
// four digits, and found where no name announces them as payment-data scanners find them.

/**
 * A card number as PCI DSS lets it be shown: its first six and last four digits, every other digit
 * a `*`, separators and length kept (so a mock learned from it still knows the form). A value with
 * too few digits for that keeps only its last four, or none.
 *
 * @example
 * maskCardNumber('4111 1111 1111 1111'); // '4111 11** **** 1111'
 */
export function maskCardNumber(value: string): string {
  // Masked digits count as digits: masking twice is masking once.
  const length = value.replace(/[^\d*]/g, '').length;
  const head = length >= 13 ? 6 : 0;
  const tail = length >= 8 ? 4 : 0;
  let seen = 0;
  return value.replace(/[\d*]/g, (digit) => {
    seen += 1;
    return seen <= head || seen > length - tail ? digit : '*';
  });
}

/** A run of 13 to 19 digits, single spaces or dashes between them allowed, not part of a word or of a decimal number. */
const DIGIT_RUN = /(?<![\w*.+-])\d(?:[ -]?\d){12,18}(?![\w*]|[.,]\d)/g;
/** Whether a text has 13 digits in a row, one space or dash allowed between two: what any card number holds. */
function mayHoldCardNumber(text: string): boolean {
  let run = 0;
  let separated = false;
  for (let at = 0; at < text.length; at++) {
    const code = text.charCodeAt(at);
    if (code >= 48 && code <= 57) {
      if (++run >= 13) return true;
      separated = false;
    } else if ((code === 32 || code === 45) && run > 0 && !separated) separated = true;
    else {
      run = 0;
      separated = false;
    }
  }
  return false;
}
/** The first digits of the card networks' numbers (2-5 Mastercard, Amex, Diners, JCB, Visa, Maestro; 6 Discover, UnionPay); a time in ms starts with 1. */
const CARD_PREFIX = /^[2-6]/;

/** Whether digits pass the Luhn check that every card number passes. */
export function luhn(digits: string): boolean {
  let sum = 0;
  for (let index = 0; index < digits.length; index++) {
    let digit = digits.charCodeAt(digits.length - 1 - index) - 48;
    if (index % 2 === 1) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2;
    sum += digit;
  }
  return sum % 10 === 0;
}

/**
 * Card numbers written where no name says so (a message that quotes one), found as payment-data
 * scanners find them: 13-19 digits of a card network's prefix that pass the Luhn check, masked.
 * A bare JSON number is written back as a string, so the text stays valid JSON.
 */
export function maskCardNumbersIn(text: string): string {
  // Most texts have no run of digits that long: one cheap look before the careful one.
  if (!mayHoldCardNumber(text)) return text;
  return text.replace(DIGIT_RUN, (run, at: number) => {
    const digits = run.replace(/\D/g, '');
    if (!CARD_PREFIX.test(digits) || !luhn(digits)) return run;
    const masked = maskCardNumber(run);
    const before = text.slice(0, at).trimEnd().at(-1);
    const bare = (before === ':' || before === '[' || before === ',') && text.charAt(at - 1) !== '"';
    return bare ? `"${masked}"` : masked;
  });
}
