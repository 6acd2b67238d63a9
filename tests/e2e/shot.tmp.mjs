import { chromium } from 'playwright-core';
const [hash, out, sel] = process.argv.slice(2);
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium' });
const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
await page.goto('http://127.0.0.1:8731/index.html' + hash);
await page.waitForTimeout(Number(process.env.WAIT ?? 2500));
if (sel) { await page.locator(sel).scrollIntoViewIfNeeded(); await page.waitForTimeout(Number(process.env.WAIT ?? 2500)); }
if (sel) await page.locator(sel).screenshot({ path: out }); else await page.screenshot({ path: out, fullPage: true });
await browser.close();
