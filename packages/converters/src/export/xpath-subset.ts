/**
 * XPath for Python's xml.etree.ElementTree, which reads only a subset: location paths of element names,
 * * . .. // and the predicates [n] [last()] [@a] [@a='v'] [tag] [tag='v'], ending optionally in /text()
 * or /@attribute. The Locust script evaluates against a wrapper element that holds the document element,
 * so "/order/id" becomes "./order/id".
 */

export type ElementTreePath = { path: string; select: 'string-value' | 'text' | { attribute: string } };

export class XPathSubsetError extends Error {
  override name = 'XPathSubsetError';
}

const NAME = '[A-Za-z_][A-Za-z0-9_.-]*';
const STEP = new RegExp(
  `^(?:\\*|\\.|\\.\\.|${NAME})(?:\\[(?:\\d+|last\\(\\)|@${NAME}(?:=(?:'[^']*'|"[^"]*"))?|${NAME}(?:=(?:'[^']*'|"[^"]*"))?)\\])*$`,
);

/** @throws XPathSubsetError when the expression needs more than ElementTree offers. */
export function xpathToElementTree(xpath: string): ElementTreePath {
  let rest = xpath.trim();
  let select: ElementTreePath['select'] = 'string-value';
  const attribute = new RegExp(`/@(${NAME})$`).exec(rest);
  if (rest.endsWith('/text()')) {
    select = 'text';
    rest = rest.slice(0, -'/text()'.length);
  } else if (attribute?.[1]) {
    select = { attribute: attribute[1] };
    rest = rest.slice(0, -attribute[0].length);
  }
  let path: string;
  if (rest.startsWith('//')) path = `.//${rest.slice(2)}`;
  else if (rest.startsWith('/')) path = `./${rest.slice(1)}`;
  else path = `./${rest}`;
  const steps = path.replace(/^\.\/\/?/, '').split(/\/\/?/);
  if (rest === '' || steps.some((step) => !STEP.test(step))) {
    throw new XPathSubsetError(
      `XPath "${xpath}" needs more than the element paths Python's ElementTree reads (no functions, axes or namespaces)`,
    );
  }
  return { path, select };
}
