// Reads an HTML form the way a browser would submit it: its method, its action and the values of its
// inputs. Enough for sign-in pages (no scripts, no selects).

const attribute = (tag, name) => {
  const match = new RegExp(`\\s${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s>]+))`, 'i').exec(tag);
  return match ? decode(match[1] ?? match[2] ?? match[3]) : undefined;
};

function decode(value) {
  return value
    .replace(/&#(\d+);/g, (_, code) => String.fromCharCode(Number(code)))
    .replace(/&#x([0-9a-f]+);/gi, (_, code) => String.fromCharCode(parseInt(code, 16)))
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

/** The first form with an input named `inputName`: { method, action, fields: [[name, value]] }. */
export function findForm(html, inputName) {
  for (const match of html.matchAll(/<form\b([^>]*)>([\s\S]*?)<\/form>/gi)) {
    const [, formTag, inner] = match;
    const fields = [];
    let found = false;
    for (const [input] of inner.matchAll(/<input\b[^>]*>/gi)) {
      const name = attribute(input, 'name');
      if (!name) continue;
      const type = (attribute(input, 'type') ?? 'text').toLowerCase();
      if (name === inputName) found = true;
      if (['submit', 'button', 'image', 'reset'].includes(type)) continue;
      if ((type === 'checkbox' || type === 'radio') && !/\schecked\b/i.test(input)) continue;
      fields.push([name, attribute(input, 'value') ?? '']);
    }
    if (found) {
      return {
        method: (attribute(formTag, 'method') ?? 'GET').toUpperCase(),
        action: attribute(formTag, 'action'),
        fields,
      };
    }
  }
  return undefined;
}
