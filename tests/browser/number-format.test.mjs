// www/common/number-format.js writes numbers as Intl.NumberFormat("en") does, without making one
// for whole numbers: a page's first Intl.NumberFormat costs Chromium 30–80 ms (ICU's set-up), which
// every page paid while it started when its modules each made one on import.

import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { formatNumber, numberFormat } from "../../www/common/number-format.js";
import { HOME, sitePages } from "../../www/common/puzzles.js";
import { startSession } from "./helpers.mjs";

test("formatNumber writes what Intl.NumberFormat('en') writes (in Node, whose Intl is the same ICU's)", () => {
  const intl = new Intl.NumberFormat("en");
  const values = [0, -0, 1, -1, 12, 123, 999, 1000, -1000, 1234, 12345, 123456, 1234567, -9876543210, 2 ** 53 - 1, -(2 ** 53 - 1), 2 ** 53, 1e21, 1e300];
  values.push(0.5, -0.125, 1234.5678, 0.0004, 1e-7, 3.14159, NaN, Infinity, -Infinity);
  let seed = 7;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  for (let i = 0; i < 2000; i += 1) {
    const scale = 10 ** Math.floor(next() * 16);
    values.push(Math.floor((next() - 0.5) * scale), (next() - 0.5) * scale);
  }
  for (const value of values) assert.equal(formatNumber(value), intl.format(value), `${value}`);
  // As an Intl.NumberFormat is passed around: its format works unbound.
  const { format } = numberFormat;
  assert.equal(format(1234567), "1,234,567");
});

describe("the pages start without Intl.NumberFormat", () => {
  const options = { timeout: 120_000 };
  let session;
  before(async () => (session = await startSession()), options);
  after(() => session?.close(), options);

  test("no page of the site makes one before it is ready", options, async () => {
    for (const { page: file } of [HOME, ...sitePages()]) {
      const page = await session.open(`/www/${file}`, {}, {
        beforeGoto: (page) =>
          page.addInitScript(() => {
            window.numberFormatsMade = 0;
            const Made = Intl.NumberFormat;
            Intl.NumberFormat = function NumberFormat(...args) {
              window.numberFormatsMade += 1;
              return new Made(...args);
            };
          }),
      });
      await page.waitForFunction(() => document.documentElement.dataset.ready === "true", null, { timeout: 60_000 });
      assert.equal(await page.evaluate(() => window.numberFormatsMade), 0, `${file} made an Intl.NumberFormat while it started`);
      assert.deepEqual(page.errors, [], file);
      await page.close();
    }
  });
});
