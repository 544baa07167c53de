/** A string as an XPath 1.0 literal, which has no escapes: concat() joins the parts around quotes. */
export function xpathString(text: string): string {
  if (!text.includes("'")) return `'${text}'`;
  if (!text.includes('"')) return `"${text}"`;
  const parts = text.split("'").map((part) => `'${part}'`);
  return `concat(${parts.join(`, "'", `)})`;
}
