/**
 * The print view's own styles, after app.css (which gives .prose its look): one clean column, a title block, and
 * for paper a new page before every level 1–2 heading of the content but the first, images no wider than the page.
 */
export const PRINT_CSS = `
@page{margin:16mm 15mm}
html,body{background:#fff;color:#111}
body{margin:0}
.print{max-width:50rem;margin:0 auto;padding:1.5rem 1.25rem 3rem}
.print__bar{display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:center;margin:0 0 1.5rem;padding:.625rem .875rem;border:1px solid #d0d4da;border-radius:.5rem;background:#f6f7f9;font-size:.875rem}
.print__block{margin:0 0 1.5rem;padding:0 0 1rem;border-bottom:2px solid #111}
.print__kicker{margin:0 0 .25rem;color:#555;font-size:.8125rem;letter-spacing:.04em;text-transform:uppercase}
.print__title{margin:0 0 .75rem;font-size:1.875rem;line-height:1.2}
.print__facts{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem;margin:0;font-size:.875rem}
.print__facts dt{font-weight:600;color:#333}
.print__facts dd{margin:0}
.print__servers{margin:0;padding:0;list-style:none}
.print__foot{margin-top:2rem;padding-top:.5rem;border-top:1px solid #ccc;color:#555;font-size:.75rem}
.print__body img{max-width:100%;max-height:22cm;height:auto;object-fit:contain}
.print__body pre{white-space:pre-wrap;overflow-wrap:anywhere}
.print .heading-anchor,.print .code-block__copy{display:none!important}
@media print{
  .print{max-width:none;padding:0}
  .print__bar{display:none}
  .print__body :is(h1,h2)~:is(h1,h2){break-before:page}
  .print__body :is(h1,h2,h3,h4){break-after:avoid}
  .print__body :is(img,pre,table,blockquote,.code-block,.table-scroll){break-inside:avoid}
  .print a{color:inherit;text-decoration:underline}
}
`;
