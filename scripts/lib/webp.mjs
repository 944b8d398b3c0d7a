// Screenshots as lossy WebP, encoded by the browser that took them (no image tool to install). The extension
// page and GitHub show a README picture at most about 900 px wide, so the screenshot is scaled to 0.8 (the
// 1600 px overview to 1280) before encoding; at quality 0.35 the text stays legible and the README's two
// pictures take about 54 KiB (83 KiB at full size and quality 0.4, 290 KiB as PNG).
export const webpQuality = 0.35;
export const webpScale = 0.8;

/** `png` (a Buffer) scaled by `scale` and re-encoded as WebP in `page`'s browser. */
export async function pngToWebp(page, png, { quality = webpQuality, scale = webpScale } = {}) {
  const base64 = await page.evaluate(
    async ({ png, quality, scale }) => {
      const image = new Image();
      image.src = `data:image/png;base64,${png}`;
      await image.decode();
      const canvas = document.createElement('canvas');
      canvas.width = Math.round(image.width * scale);
      canvas.height = Math.round(image.height * scale);
      const context = canvas.getContext('2d');
      context.imageSmoothingQuality = 'high';
      context.drawImage(image, 0, 0, canvas.width, canvas.height);
      return canvas.toDataURL('image/webp', quality).split(',')[1];
    },
    { png: png.toString('base64'), quality, scale },
  );
  return Buffer.from(base64, 'base64');
}
