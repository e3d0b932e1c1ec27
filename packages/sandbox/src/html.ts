/** Escapes text for HTML element content and attribute values. */
export function escapeHtml(value: string): string {
  return value
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

export function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
  body { font: 15px/1.5 system-ui, sans-serif; margin: 0; color: #1a2b2e; background: #f4f7f7; }
  header { background: #0b5d5b; color: #fff; padding: 12px 24px; }
  header a { color: #fff; text-decoration: none; font-weight: 600; }
  main { max-width: 960px; margin: 24px auto; padding: 0 16px; }
  section { background: #fff; border-radius: 8px; padding: 16px 20px; margin-bottom: 20px; box-shadow: 0 1px 2px #0002; }
  table { width: 100%; border-collapse: collapse; }
  th, td { text-align: left; padding: 6px 8px; border-bottom: 1px solid #e3ebeb; vertical-align: top; }
  pre { white-space: pre-wrap; background: #f4f7f7; padding: 12px; border-radius: 6px; }
  label { display: block; margin: 12px 0 4px; font-weight: 600; }
  input[type=email], input[type=text], input[type=tel], select { width: 100%; max-width: 360px; padding: 8px; font: inherit; box-sizing: border-box; }
  button { font: inherit; padding: 8px 16px; margin-right: 8px; border-radius: 6px; border: 1px solid #0b5d5b; cursor: pointer; }
  button.primary { background: #0b5d5b; color: #fff; }
  .muted { color: #5b6e70; }
  .notice { background: #fff6d6; border-radius: 6px; padding: 8px 12px; }
  .call { border-top: 1px solid #e3ebeb; padding-top: 8px; }
  .keypad { display: grid; grid-template-columns: repeat(3, 56px); gap: 8px; }
  .keypad button { margin: 0; padding: 10px 0; }
  iframe { width: 100%; min-height: 320px; border: 1px solid #e3ebeb; border-radius: 6px; }
  .scroll { overflow-x: auto; }
  form.inline { display: flex; flex-wrap: wrap; gap: 6px; align-items: center; margin: 6px 0; }
  form.inline label { display: inline; margin: 0; }
  form.inline button { margin-right: 0; padding: 6px 10px; }
  input[type=number], input.narrow { width: 7em; padding: 6px; font: inherit; }
</style>
</head>
<body>
<header><a href="/sandbox">Vigil sandbox</a> <span class="muted" style="color:#cfe">— local stand-ins of the providers</span></header>
<main>${body}</main>
</body>
</html>`;
}
