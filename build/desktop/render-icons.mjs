// Draws the desktop app's icons from build/desktop/icon.svg (run by hand after editing it; the PNGs are
// committed): icon.png (512 px) for electron-builder's installers, and desktop/assets/tray.png with its
// @2x twin for the tray, which the packaged app carries.
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';

const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const svg = here('./icon.svg');
await sharp(svg, { density: 288 }).resize(512, 512).png().toFile(here('./icon.png'));
await sharp(svg, { density: 72 }).resize(16, 16).png().toFile(here('../../desktop/assets/tray.png'));
await sharp(svg, { density: 72 }).resize(32, 32).png().toFile(here('../../desktop/assets/tray@2x.png'));
