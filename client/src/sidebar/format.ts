/** File names for the sidebar's headings; sizes and counts are written by the shared protocol's format. Pure. */

/** The last path segment of a URI, decoded, for headings ("ds_config.json"). */
export function fileNameOf(uri: string): string {
  const path = uri.replace(/[?#].*$/, '').replace(/\/+$/, '');
  const last = path.slice(path.lastIndexOf('/') + 1) || path;
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
}
