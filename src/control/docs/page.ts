// The docs page: a shell its script (src/control/docs/ui, bundled into the dashboard's assets as docs.js) fills
// from openapi.json. Every link is relative, so it follows the host and path the browser used; nothing is loaded
// from outside the sandbox.

/** The HTML of GET /docs. */
export const DOCS_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Request Sandbox API</title>
<link rel="icon" href="__sandbox/dashboard/icon.svg" type="image/svg+xml">
<link rel="stylesheet" href="__sandbox/dashboard/app.css">
<link rel="stylesheet" href="__sandbox/dashboard/docs.css">
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<noscript><p class="panel">The docs page needs JavaScript. The document itself is at <a href="openapi.json">openapi.json</a> and <a href="openapi.yaml">openapi.yaml</a>.</p></noscript>
<div id="app"></div>
<script type="module" src="__sandbox/dashboard/docs.js"></script>
</body>
</html>
`
