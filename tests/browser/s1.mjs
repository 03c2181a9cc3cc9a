import { start, openApp } from "/work/main/tests/browser/browser.mjs";
const env = await start();
try {
  for (const [q, vp, name] of [["scene=cup&lang=zh&step=1", {width:390,height:844}, "cupzh1"], ["scene=cup&lang=en", {width:1440,height:900}, "cupen0"]]) {
    const page = await openApp(env, q, { viewport: vp, hasTouch: vp.width<500, isMobile: vp.width<500 });
    await page.screenshot({ path: `/tmp/review/${name}-fold.png` });
    await page.screenshot({ path: `/tmp/review/${name}.png`, fullPage: true });
    console.log(name, page.url());
    console.log((await page.innerText("body")).slice(0, 4000));
    console.log("errors", page.errors);
    await page.close();
  }
} finally { await env.close(); }
