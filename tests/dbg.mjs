import { startSession } from "./browser/helpers.mjs";
const s = await startSession();
const page = await s.newPage("#size=4x4&start=5,1,2,3,9,6,7,4,13,10,11,8,_,14,15,12&goal=1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,_", { colorScheme: "dark" });
await page.focus("sliding-board");
await page.screenshot({ path: "/tmp/dark.png", fullPage: true });
const p2 = await s.newPage("#size=2x5&start=1,2,3,4,5,6,7,8,_,9&goal=1,2,3,4,5,6,7,8,9,_", {viewport:{width:390,height:844}});
await p2.screenshot({ path: "/tmp/rect.png" });
console.log(page.errors, p2.errors);
await s.close();
