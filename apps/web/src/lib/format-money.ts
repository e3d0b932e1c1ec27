/** An amount (a decimal string or number in the currency's major unit) in its currency: `$19.00`, `€10.50`. */
export function formatMoney(amount: string | number, currency: string): string {
  const value = Number(amount);
  if (!Number.isFinite(value)) return `${amount} ${currency}`;
  try {
    return new Intl.NumberFormat('en-US', { style: 'currency', currency }).format(value);
  } catch {
    // Not a currency code Intl knows.
    return `${value.toFixed(2)} ${currency}`;
  }
}
