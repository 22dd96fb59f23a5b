// Renders an HTML report in headless Chromium and measures it through the DevTools protocol, over
// --remote-debugging-pipe (fds 3 and 4, NUL-terminated JSON): no npm package, no browser download,
// no network port.
//
// Usage: node check_report.mjs CHROMIUM REPORT.html OUT_DIR [CHART_INDEX,...]
// Writes OUT_DIR/report.png (full page, 1200 px wide), OUT_DIR/report-phone.png (390 px wide),
// OUT_DIR/chart.png (the first chart at 2x), OUT_DIR/chart-N.png for each CHART_INDEX given, OUT_DIR/section-ID.png for every section but the
// campaign and the per-scenario ones, and prints one JSON object on stdout:
//   console: console messages of level error or warning, exceptions and Log entries of level error
//   charts:  per svg.chart its rendered width, height, number of drawn series and title
//   overlaps: pairs of text elements inside one chart whose boxes intersect
//   outside: text elements that stick out of their chart
//   phone:   document and viewport widths at 390 px (a horizontal page scroll is a failure)
//   pdf_bytes: size of Page.printToPDF's result
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const [chromium, reportPath, outDir, chartList] = process.argv.slice(2);
if (!chromium || !reportPath || !outDir) {
  console.error('usage: node check_report.mjs CHROMIUM REPORT.html OUT_DIR');
  process.exit(2);
}

const profile = mkdtempSync(join(tmpdir(), 'azbench-chromium-'));
// In its own process group, so that finish() can kill the zygote and renderers with it: they keep
// writing into the profile for a moment after the main process dies.
const browser = spawn(chromium, [
  '--headless', '--no-sandbox', '--disable-gpu', '--remote-debugging-pipe', '--no-first-run',
  '--no-default-browser-check', '--disable-extensions', '--disable-background-networking',
  '--disable-sync', '--hide-scrollbars', `--user-data-dir=${profile}`, 'about:blank',
], { stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'], detached: true });
let stderr = '';
browser.stderr.on('data', (d) => { stderr += d; });

const watchdog = setTimeout(() => finish(new Error('timed out after 90 s')), 90_000);
let browserExited = false;
let finishing = false;
async function finish(error, result) {
  if (finishing) return;
  finishing = true;
  clearTimeout(watchdog);
  try { process.kill(-browser.pid, 'SIGKILL'); } catch {}
  // Wait (up to 5 s) until the group is gone before removing the profile it writes to.
  for (let i = 0; i < 100; i++) {
    let groupAlive = true;
    try { process.kill(-browser.pid, 0); } catch { groupAlive = false; }
    if (browserExited && !groupAlive) break;
    await new Promise((ok) => setTimeout(ok, 50));
  }
  try {
    rmSync(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
  } catch (e) {
    console.error(`check_report: could not remove ${profile}: ${e.message}`);
  }
  if (error) {
    console.error(`check_report: ${error.message}\n--- chromium stderr ---\n${stderr.slice(-4000)}`);
    process.exit(1);
  }
  process.stdout.write(JSON.stringify(result) + '\n');
  process.exit(0);
}
browser.on('error', (e) => finish(e));
browser.on('exit', (code) => {
  browserExited = true;
  finish(new Error(`chromium exited (${code}) before the check ended`));
});

const toBrowser = browser.stdio[3];
const fromBrowser = browser.stdio[4];
let nextId = 1;
const pending = new Map();
const listeners = [];
let buffer = Buffer.alloc(0);
fromBrowser.on('data', (chunk) => {
  buffer = Buffer.concat([buffer, chunk]);
  let end;
  while ((end = buffer.indexOf(0)) >= 0) {
    const message = JSON.parse(buffer.subarray(0, end).toString('utf8'));
    buffer = buffer.subarray(end + 1);
    if (message.id && pending.has(message.id)) {
      const { resolve: ok, reject } = pending.get(message.id);
      pending.delete(message.id);
      if (message.error) reject(new Error(`${message.error.message} (${JSON.stringify(message.error)})`));
      else ok(message.result);
    } else if (message.method) {
      for (const l of listeners) l(message);
    }
  }
});

function send(method, params = {}, sessionId) {
  const id = nextId++;
  const message = { id, method, params };
  if (sessionId) message.sessionId = sessionId;
  toBrowser.write(JSON.stringify(message) + '\0');
  return new Promise((ok, reject) => pending.set(id, { resolve: ok, reject }));
}

function waitFor(method, sessionId) {
  return new Promise((ok) => {
    const l = (m) => {
      if (m.method === method && m.sessionId === sessionId) {
        listeners.splice(listeners.indexOf(l), 1);
        ok(m.params);
      }
    };
    listeners.push(l);
  });
}

async function evaluate(session, expression) {
  const r = await send('Runtime.evaluate', { expression, returnByValue: true }, session);
  if (r.exceptionDetails) throw new Error(`evaluate: ${JSON.stringify(r.exceptionDetails)}`);
  return r.result.value;
}

const measure = `(() => {
  const charts = [...document.querySelectorAll('svg.chart')];
  const out = { charts: [], overlaps: [], outside: [], sections: [] };
  out.sections = [...document.querySelectorAll('section[id]')].map((s) => s.id);
  charts.forEach((svg, index) => {
    const box = svg.getBoundingClientRect();
    const title = svg.querySelector('title')?.textContent ?? '';
    const series = [...svg.querySelectorAll('g.series')].filter((g) => g.querySelector('path,circle,rect')).length;
    out.charts.push({ index, title, width: box.width, height: box.height, series });
    const texts = [...svg.querySelectorAll('text')].filter((t) => t.textContent.trim() !== '');
    const rects = texts.map((t) => t.getBoundingClientRect());
    for (let i = 0; i < texts.length; ++i) {
      const a = rects[i];
      if (a.left < box.left - 1 || a.right > box.right + 1 || a.top < box.top - 1 || a.bottom > box.bottom + 1) {
        out.outside.push({ chart: index, title, text: texts[i].textContent });
      }
      for (let j = i + 1; j < texts.length; ++j) {
        const b = rects[j];
        const w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
        const h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
        if (w > 0.5 && h > 0.5) {
          out.overlaps.push({ chart: index, title, a: texts[i].textContent, b: texts[j].textContent });
        }
      }
    }
  });
  return out;
})()`;

async function main() {
  const { targetId } = await send('Target.createTarget', { url: 'about:blank' });
  const { sessionId: s } = await send('Target.attachToTarget', { targetId, flatten: true });
  const consoleMessages = [];
  listeners.push((m) => {
    if (m.sessionId !== s) return;
    if (m.method === 'Runtime.consoleAPICalled' && ['error', 'warning', 'assert'].includes(m.params.type)) {
      consoleMessages.push(`console.${m.params.type}: ${m.params.args.map((a) => a.value ?? a.description).join(' ')}`);
    } else if (m.method === 'Runtime.exceptionThrown') {
      consoleMessages.push(`exception: ${m.params.exceptionDetails.exception?.description ?? m.params.exceptionDetails.text}`);
    } else if (m.method === 'Log.entryAdded' && ['error', 'warning'].includes(m.params.entry.level)) {
      consoleMessages.push(`log.${m.params.entry.level}: ${m.params.entry.text} ${m.params.entry.url ?? ''}`);
    }
  });
  await send('Page.enable', {}, s);
  await send('Runtime.enable', {}, s);
  await send('Log.enable', {}, s);
  await send('Emulation.setDeviceMetricsOverride', { width: 1200, height: 900, deviceScaleFactor: 1, mobile: false }, s);
  const loaded = waitFor('Page.loadEventFired', s);
  await send('Page.navigate', { url: pathToFileURL(resolve(reportPath)).href }, s);
  await loaded;
  const result = await evaluate(s, measure);
  const { cssContentSize } = await send('Page.getLayoutMetrics', {}, s);
  const height = Math.min(Math.ceil(cssContentSize.height), 16000);
  const shot = await send('Page.captureScreenshot', {
    format: 'png', captureBeyondViewport: true, clip: { x: 0, y: 0, width: 1200, height, scale: 1 },
  }, s);
  writeFileSync(join(outDir, 'report.png'), Buffer.from(shot.data, 'base64'));
  const first = await evaluate(s, `(() => { const f = document.querySelector('svg.chart')?.closest('figure');
    if (!f) return null; const r = f.getBoundingClientRect();
    return { x: r.left + window.scrollX, y: r.top + window.scrollY, width: r.width, height: r.height }; })()`);
  if (first) {
    const chart = await send('Page.captureScreenshot', {
      format: 'png', captureBeyondViewport: true, clip: { ...first, scale: 2 },
    }, s);
    writeFileSync(join(outDir, 'chart.png'), Buffer.from(chart.data, 'base64'));
  }
  for (const index of (chartList ?? '').split(',').filter((v) => v !== '').map(Number)) {
    const r = await evaluate(s, `(() => { const c = document.querySelectorAll('svg.chart')[${index}];
      if (!c) return null; const r = c.closest('figure').getBoundingClientRect();
      return { x: r.left + window.scrollX, y: r.top + window.scrollY, width: r.width, height: r.height }; })()`);
    if (!r) throw new Error(`no chart ${index}`);
    const pic = await send('Page.captureScreenshot', { format: 'png', captureBeyondViewport: true, clip: { ...r, scale: 1.5 } }, s);
    writeFileSync(join(outDir, `chart-${index}.png`), Buffer.from(pic.data, 'base64'));
  }
  // One picture per section after the per-scenario ones (sweeps, scaling, visibility, ...).
  for (const id of result.sections.filter((id) => !id.startsWith('cell-') && id !== 'campaign')) {
    const r = await evaluate(s, `(() => { const r = document.getElementById('${id}').getBoundingClientRect();
      return { x: r.left + window.scrollX, y: r.top + window.scrollY, width: r.width, height: Math.min(r.height, 8000) }; })()`);
    const pic = await send('Page.captureScreenshot', { format: 'png', captureBeyondViewport: true, clip: { ...r, scale: 1 } }, s);
    writeFileSync(join(outDir, `section-${id}.png`), Buffer.from(pic.data, 'base64'));
  }
  result.pdf_bytes = Buffer.from((await send('Page.printToPDF', {}, s)).data, 'base64').length;

  // A phone: 390 CSS px wide.
  await send('Emulation.setDeviceMetricsOverride', { width: 390, height: 844, deviceScaleFactor: 1, mobile: true }, s);
  result.phone = await evaluate(s, `({ document_width: document.documentElement.scrollWidth, viewport_width: window.innerWidth,
    chart_widths: [...document.querySelectorAll('svg.chart')].map((c) => c.getBoundingClientRect().width) })`);
  const phone = await send('Page.captureScreenshot', { format: 'png', clip: { x: 0, y: 0, width: 390, height: 844, scale: 1 } }, s);
  writeFileSync(join(outDir, 'report-phone.png'), Buffer.from(phone.data, 'base64'));
  result.console = consoleMessages;
  browser.removeAllListeners('exit');
  finish(null, result);
}

main().catch((e) => finish(e));
