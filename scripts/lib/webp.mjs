// Screenshots as lossy WebP, encoded by the browser that took them (no image tool to install). At quality 0.4
// the editor's text stays sharp and the README's two pictures take 85 KiB instead of 290 KiB as PNG.
export const webpQuality = 0.4;

/** `png` (a Buffer) re-encoded as WebP in `page`'s browser. */
export async function pngToWebp(page, png, quality = webpQuality) {
  const base64 = await page.evaluate(
    async ({ png, quality }) => {
      const image = new Image();
      image.src = `data:image/png;base64,${png}`;
      await image.decode();
      const canvas = document.createElement('canvas');
      canvas.width = image.width;
      canvas.height = image.height;
      canvas.getContext('2d').drawImage(image, 0, 0);
      return canvas.toDataURL('image/webp', quality).split(',')[1];
    },
    { png: png.toString('base64'), quality },
  );
  return Buffer.from(base64, 'base64');
}
