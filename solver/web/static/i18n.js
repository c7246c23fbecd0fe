// The board's words in the reader's language (issue 64): the catalogue the server put
// in the page (<script id="durak-i18n">, the same catalogues as the terminal's, as
// JSON: solver/i18n), and the language switcher.  Loaded before every other script.
//   gt("Seat {seat} leads", { seat: 2 })       a message, its {names} filled in
//   ngt("{n} card", "{n} cards", n)            the plural form for n (lt, ru: three)
//   pgt("card rank", "K")                      a message in its context
// A message the catalogue lacks is shown as written (English).
"use strict";

const DurakI18n = (function () {
  const node = document.getElementById("durak-i18n");
  const data = node ? JSON.parse(node.textContent)
    : { lang: "en", plural: "n != 1", messages: {} };
  // the catalogue's own plural rule (its Plural-Forms header, a C expression in n)
  const pluralIndex = new Function("n", `return Number(${data.plural});`);
  const COOKIE = "durak_lang";

  function fill(text, args) {
    if (!args) return text;
    return text.replace(/\{([a-z_][a-z_0-9]*)\}/g,
      (m, k) => (Object.prototype.hasOwnProperty.call(args, k) ? String(args[k]) : m));
  }
  function gt(msg, args) {
    const v = data.messages[msg];
    return fill(typeof v === "string" && v ? v : msg, args);
  }
  function ngt(one, many, n, args) {
    const v = data.messages[one];
    let text = n === 1 ? one : many;
    if (Array.isArray(v)) text = v[pluralIndex(n)] || text;
    return fill(text, Object.assign({ n }, args || {}));
  }
  function pgt(context, msg) {
    const v = data.messages[context + "\u0004" + msg];
    return typeof v === "string" && v ? v : msg;
  }
  // the switcher: the choice kept in a cookie (the server reads it for every page and
  // answer) and the page reloaded; a game in progress is kept by the server and found
  // again from the URL or the browser's storage
  function choose(lang) {
    document.cookie = `${COOKIE}=${lang}; path=/; max-age=31536000; samesite=lax`;
    window.location.reload();
  }
  const sw = document.getElementById("lang-switch");
  if (sw) {
    sw.value = data.lang;
    sw.addEventListener("change", () => choose(sw.value));
  }
  return { lang: data.lang, gt, ngt, pgt, choose };
})();
const { gt, ngt, pgt } = DurakI18n;
