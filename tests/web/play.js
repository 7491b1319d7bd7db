// Plays the browser build in Debian's headless chromium (tests/web/run.sh):
// waits for the game, clicks a tile with the goto tool, presses P (the path
// overlay), lets it run, screenshots the page and checks, through the
// game's own exported tn_web_state(), that the character went to the
// clicked tile, the key reached the game, and the HUD's fps counter says
// more than 50; then that the game's window follows the page's size and
// that Ctrl+S offers a download and keeps the map in IndexedDB, and that
// Esc stops the game and autosaves an unsaved edit.
// Usage: node play.js URL OUT_DIR USER_DATA_DIR   (WEB_LOG=1: print the page's console)
'use strict';
const fs = require('fs');
const path = require('path');
const puppeteer = require('puppeteer-core');

const [url, outDir, userDataDir] = process.argv.slice(2);
const TARGET = [24, 40];     // maps/demo.map: over a wall and down, ~20 tiles away
const RUN_FRAMES = 420;      // fixed 1/60 s steps after the click (the walk takes ~300)
const MIN_FPS = 50;
const T = 120000;            // generous: two shared cores, many users

function fail(msg) { throw new Error(msg); }
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function main() {
  const browser = await puppeteer.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    userDataDir,
    protocolTimeout: T,
    timeout: T,
    defaultViewport: { width: 1280, height: 720 },
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
           '--disable-background-networking', '--disable-component-update', '--disable-sync',
           '--disable-background-timer-throttling', '--disable-renderer-backgrounding',
           '--disable-backgrounding-occluded-windows'],
  });
  fs.writeFileSync(path.join(outDir, 'browser.pid'), String(browser.process().pid));
  try {
    const page = await browser.newPage();
    const log = [];
    page.on('console', (m) => log.push(m.type() + ': ' + m.text()));
    page.on('pageerror', (e) => log.push('pageerror: ' + e.message));
    const state = async () => JSON.parse(await page.evaluate(() =>
      (window.Module && Module.calledRun && Module._tn_web_state)
        ? Module.ccall('tn_web_state', 'string', [], []) : '{}'));
    try {
      await page.goto(url, { waitUntil: 'load', timeout: T });
      // Running: the world exists and has stepped for a second.
      await page.waitForFunction(() => {
        if (!(window.Module && Module.calledRun && Module._tn_web_state)) return false;
        const s = JSON.parse(Module.ccall('tn_web_state', 'string', [], []));
        return s.world && s.world.frames >= 60;
      }, { timeout: T, polling: 200 });
    } catch (e) {
      fail('the game did not start: ' + e.message + '\n' + log.join('\n'));
    }
    const s0 = await state();
    const c0 = s0.world.character;
    console.log(`web: running, renderer ${s0.renderer}, frame ${s0.world.frames}, ` +
                `character at tile ${c0.tile_x},${c0.tile_y}`);

    // Click the target tile (the goto tool is the default) and press P.
    const xy = JSON.parse(await page.evaluate((tx, ty) =>
      Module.ccall('tn_web_tile_xy', 'string', ['number', 'number'], [tx, ty]), TARGET[0], TARGET[1]));
    if (!xy) fail(`tile ${TARGET} is not on screen`);
    await page.mouse.move(xy[0], xy[1]);
    await page.mouse.click(xy[0], xy[1]);
    await page.keyboard.press('KeyP');
    const f0 = (await state()).world.frames;
    await page.waitForFunction((f) =>
      JSON.parse(Module.ccall('tn_web_state', 'string', [], [])).world.frames >= f,
    { timeout: T, polling: 200 }, f0 + RUN_FRAMES);
    const shot = path.join(outDir, 'web.png');
    await page.screenshot({ path: shot });
    const s1 = await state();
    const c1 = s1.world.character, bot = s1.world.bot;
    console.log(`web: after ${s1.world.frames - f0} frames: character at tile ${c1.tile_x},${c1.tile_y}, ` +
                `bot ${bot.state} goal ${bot.goal_x},${bot.goal_y}; overlays ${s0.overlays} -> ${s1.overlays}; ` +
                `screenshot ${shot}`);
    const dist = (c) => Math.abs(c.tile_x - TARGET[0]) + Math.abs(c.tile_y - TARGET[1]);
    if (bot.goal_x !== TARGET[0] || bot.goal_y !== TARGET[1])
      fail(`the click did not reach the game: goal ${bot.goal_x},${bot.goal_y}`);
    if (!(dist(c1) < dist(c0) / 2))
      fail(`the character did not go toward ${TARGET}: distance ${dist(c0)} -> ${dist(c1)}`);
    if (!((s1.overlays ^ s0.overlays) & 1)) fail('the P key did not toggle the path overlay');

    // The HUD's fps counter (a 0.5 s average): the median of 8 readings,
    // 0.5 s apart; up to five windows, as the machine is shared.
    let fps = [];
    for (let win = 0; win < 5; win++) {
      fps = [];
      const cost = [];
      for (let i = 0; i < 8; i++) {
        await sleep(500);
        const s = await state();
        fps.push(s.fps);
        cost.push(`${s.frame_ms.toFixed(1)}/${s.step_ms.toFixed(2)}`);
      }
      console.log(`web: draw/step ms ${cost.join(' ')}`);
      fps.sort((a, b) => a - b);
      console.log(`web: HUD fps readings ${fps.map((v) => v.toFixed(1)).join(' ')}`);
      if (fps[4] > MIN_FPS) break;
    }
    if (!(fps[4] > MIN_FPS)) fail(`fps median ${fps[4]} <= ${MIN_FPS}`);
    console.log(`web: fps median ${fps[4].toFixed(1)}`);

    // The canvas fills the page: a smaller page, a smaller window.
    await page.setViewport({ width: 960, height: 600 });
    await page.waitForFunction(() => {
      const w = JSON.parse(Module.ccall('tn_web_state', 'string', [], [])).window;
      return w[0] === 960 && w[1] === 600;
    }, { timeout: T, polling: 200 }).catch(async () =>
      fail('the window did not follow the page: ' + JSON.stringify((await state()).window)));
    console.log('web: the page went to 960x600 and so did the game\'s window');

    // Ctrl+S: the map goes to /save (IndexedDB) and is offered as a download;
    // after a reload the page finds it there.
    await page.keyboard.down('Control');
    await page.keyboard.press('KeyS');
    await page.keyboard.up('Control');
    await page.waitForFunction(() => Module.tnDownloads === 1, { timeout: T, polling: 200 });
    await sleep(1000); // the IndexedDB write is asynchronous
    await page.reload({ waitUntil: 'load', timeout: T });
    await page.waitForFunction(() => window.Module && Module.calledRun && Module._tn_web_state &&
      JSON.parse(Module.ccall('tn_web_state', 'string', [], [])).world, { timeout: T, polling: 200 });
    const kept = await page.evaluate(() => Module.FS.analyzePath('/save/demo.map').exists);
    if (!kept) fail('Ctrl+S: /save/demo.map is not in IndexedDB after a reload');
    console.log('web: Ctrl+S offered a download and the map was in IndexedDB after a reload');

    // An unsaved edit (right click: a block), then Esc: the game stops and
    // keeps the edit as /save/demo.map.autosave, in IndexedDB too.
    const xy2 = JSON.parse(await page.evaluate(() =>
      Module.ccall('tn_web_tile_xy', 'string', ['number', 'number'], [40, 10])));
    await page.mouse.click(xy2[0], xy2[1], { button: 'right' });
    await page.waitForFunction(() =>
      JSON.parse(Module.ccall('tn_web_state', 'string', [], [])).world.unsaved === true,
    { timeout: T, polling: 200 });
    await page.keyboard.press('Escape');
    await page.waitForFunction(() =>
      JSON.parse(Module.ccall('tn_web_state', 'string', [], [])).stopped === true,
    { timeout: T, polling: 200 });
    const end = await state();
    const autosaved = await page.evaluate(() => Module.FS.analyzePath('/save/demo.map.autosave').exists);
    const status = await page.evaluate(() => document.getElementById('status').textContent);
    if (end.rc !== 0 || !autosaved) fail(`Esc: rc ${end.rc}, autosave ${autosaved}`);
    console.log(`web: Esc stopped the game (rc 0), edits autosaved; the page says "${status}"`);
    if (log.some((l) => l.startsWith('pageerror'))) fail('page errors:\n' + log.join('\n'));
    if (process.env.WEB_LOG) console.log('web: the page\'s console:\n' + log.join('\n'));
  } finally {
    await browser.close();
  }
}

main().then(() => process.exit(0), (e) => { console.error('web: FAIL: ' + e.message); process.exit(1); });
