// The demo store's product pictures (api/src/db/seed-demo.ts): flat drawings of booth A/V equipment made
// of shapes only, like the gallery scenes (no photographs, no third-party artwork, no text, so no font is
// needed to render them). Each is a square SVG; generate.mjs rasterises it to WebP with sharp.

export const PRODUCT_PICTURE_SIZE = 480;

const INK = '#0d1b2a';
const STEEL = '#3b4658';
const SCREEN = ['#1d4ed8', '#7b2ff7'];

function frame(body, background = ['#eef3f8', '#d9e3ee']) {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${PRODUCT_PICTURE_SIZE}" height="${PRODUCT_PICTURE_SIZE}" viewBox="0 0 480 480">
<defs>
<linearGradient id="bg" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${background[0]}"/><stop offset="1" stop-color="${background[1]}"/></linearGradient>
<linearGradient id="screen" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${SCREEN[0]}"/><stop offset="1" stop-color="${SCREEN[1]}"/></linearGradient>
<linearGradient id="glass" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#ffffff" stop-opacity="0.28"/><stop offset="0.5" stop-color="#ffffff" stop-opacity="0"/></linearGradient>
<radialGradient id="floor" cx="0.5" cy="0.5" r="0.5"><stop offset="0" stop-color="${INK}" stop-opacity="0.22"/><stop offset="1" stop-color="${INK}" stop-opacity="0"/></radialGradient>
</defs>
<rect width="480" height="480" fill="url(#bg)"/>
${body}
</svg>`;
}

const shadow = (cx, cy, rx) =>
  `<ellipse cx="${cx}" cy="${cy}" rx="${rx}" ry="${Math.round(rx / 7)}" fill="url(#floor)"/>`;

function screenOnStand({ width, height, top, feet }) {
  const x = (480 - width) / 2;
  const bottom = top + height;
  return `${shadow(240, 430, feet + 40)}
<rect x="228" y="${bottom}" width="24" height="${420 - bottom}" fill="${STEEL}"/>
<rect x="${240 - feet}" y="416" width="${feet * 2}" height="12" rx="6" fill="${INK}"/>
<rect x="${x - 10}" y="${top - 10}" width="${width + 20}" height="${height + 20}" rx="8" fill="${INK}"/>
<rect x="${x}" y="${top}" width="${width}" height="${height}" fill="url(#screen)"/>
<circle cx="${x + width * 0.3}" cy="${top + height * 0.55}" r="${height * 0.32}" fill="#ffffff" opacity="0.12"/>
<circle cx="${x + width * 0.72}" cy="${top + height * 0.35}" r="${height * 0.22}" fill="#ffffff" opacity="0.1"/>
<rect x="${x}" y="${top}" width="${width}" height="${height}" fill="url(#glass)"/>`;
}

const DRAWINGS = {
  monitor: () => frame(screenOnStand({ width: 300, height: 170, top: 90, feet: 90 })),
  display4k: () =>
    frame(
      `${screenOnStand({ width: 380, height: 214, top: 70, feet: 120 })}
<g fill="none" stroke="#ffffff" stroke-width="10" stroke-linejoin="round" opacity="0.85"><path d="M224 162 L194 200 H238 M224 162 V216"/>
<path d="M256 160 V216 M284 160 L258 190 L284 216"/></g>`,
      ['#f1f0fb', '#dcd8f2'],
    ),
  laptop: () =>
    frame(`${shadow(240, 372, 200)}
<path d="M120 110 h240 a10 10 0 0 1 10 10 v190 h-260 v-190 a10 10 0 0 1 10 -10 z" fill="${INK}"/>
<rect x="128" y="120" width="224" height="180" fill="url(#screen)"/>
<g fill="#ffffff" opacity="0.5"><rect x="148" y="146" width="90" height="10" rx="5"/><rect x="148" y="168" width="150" height="8" rx="4"/><rect x="148" y="186" width="120" height="8" rx="4"/><rect x="148" y="222" width="70" height="50" rx="6"/><rect x="228" y="222" width="70" height="50" rx="6"/></g>
<rect x="128" y="120" width="224" height="180" fill="url(#glass)"/>
<path d="M80 318 h320 l-24 44 h-272 z" fill="#a9b4c2"/>
<path d="M80 318 h320 v6 h-320 z" fill="#c7d0db"/>
<rect x="206" y="346" width="68" height="8" rx="4" fill="#8793a3"/>`),
  microphone: () =>
    frame(
      `${shadow(240, 420, 90)}
<rect x="190" y="404" width="100" height="16" rx="8" fill="${INK}"/>
<path d="M210 404 l20 -70 h20 l20 70 z" fill="${STEEL}"/>
<g transform="rotate(-28 240 250)">
<rect x="222" y="190" width="36" height="170" rx="14" fill="${INK}"/>
<rect x="222" y="300" width="36" height="14" fill="#1d4ed8"/>
<circle cx="240" cy="150" r="54" fill="#6b7788"/>
<circle cx="240" cy="150" r="46" fill="#8a96a8"/>
<g stroke="#5b6677" stroke-width="3"><path d="M198 150 h84"/><path d="M204 128 h72"/><path d="M204 172 h72"/><path d="M240 106 v88"/><path d="M218 112 v76"/><path d="M262 112 v76"/></g>
<rect x="214" y="196" width="52" height="16" rx="6" fill="${STEEL}"/>
</g>
<g fill="none" stroke="#1d4ed8" stroke-width="6" stroke-linecap="round" opacity="0.7"><path d="M330 110 a60 60 0 0 1 0 84"/><path d="M356 90 a90 90 0 0 1 0 124"/></g>`,
      ['#eef6f3', '#d3e7df'],
    ),
  speakers: () => {
    const speaker = (x) => `<rect x="${x + 42}" y="300" width="10" height="110" fill="${STEEL}"/>
<path d="M${x + 47} 380 l-40 40 M${x + 47} 380 l40 40" stroke="${STEEL}" stroke-width="8"/>
<rect x="${x}" y="110" width="94" height="190" rx="10" fill="${INK}"/>
<circle cx="${x + 47}" cy="150" r="18" fill="#2b3444"/><circle cx="${x + 47}" cy="150" r="8" fill="#56627a"/>
<circle cx="${x + 47}" cy="236" r="38" fill="#2b3444"/><circle cx="${x + 47}" cy="236" r="22" fill="#56627a"/><circle cx="${x + 47}" cy="236" r="8" fill="#2b3444"/>`;
    return frame(
      `${shadow(240, 424, 200)}${speaker(44)}${speaker(342)}
<rect x="168" y="330" width="144" height="70" rx="8" fill="${STEEL}"/>
<rect x="176" y="338" width="128" height="54" rx="4" fill="#2b3444"/>
${[0, 1, 2, 3].map((i) => `<rect x="${190 + i * 30}" y="346" width="6" height="38" rx="3" fill="#8793a3"/><rect x="${186 + i * 30}" y="${352 + i * 7}" width="14" height="8" rx="2" fill="#f4a261"/>`).join('')}`,
      ['#fbf3ec', '#f0dccb'],
    );
  },
  projector: () =>
    frame(`${shadow(240, 430, 200)}
<path d="M120 60 v10 M360 60 v10" stroke="${STEEL}" stroke-width="6"/>
<rect x="96" y="66" width="288" height="12" rx="6" fill="${STEEL}"/>
<rect x="108" y="78" width="264" height="170" fill="#f8fafc" stroke="#c7d0db" stroke-width="2"/>
<path d="M116 240 L180 150 L226 200 L262 164 L364 240 Z" fill="#1d4ed8" opacity="0.35"/>
<circle cx="320" cy="120" r="18" fill="#f4a261" opacity="0.7"/>
<path d="M240 248 v150 M240 398 l-70 30 M240 398 l70 30 M240 398 v30" stroke="${STEEL}" stroke-width="8"/>
<path d="M196 330 L150 248 L330 248 L268 330 Z" fill="#fffbe6" opacity="0.45"/>
<rect x="160" y="326" width="96" height="40" rx="8" fill="${INK}"/>
<circle cx="196" cy="346" r="14" fill="#2b3444"/><circle cx="196" cy="346" r="7" fill="#9fc2ff"/>
<rect x="224" y="336" width="22" height="6" rx="3" fill="#56627a"/>`),
  kiosk: () =>
    frame(
      `${shadow(240, 424, 110)}
<rect x="170" y="406" width="140" height="18" rx="9" fill="${INK}"/>
<path d="M222 406 L228 250 H252 L258 406 Z" fill="${STEEL}"/>
<g transform="rotate(-12 240 170)">
<rect x="156" y="70" width="168" height="220" rx="16" fill="${INK}"/>
<rect x="170" y="86" width="140" height="188" rx="4" fill="url(#screen)"/>
<g fill="#ffffff" opacity="0.55"><rect x="186" y="106" width="108" height="12" rx="6"/><rect x="186" y="136" width="108" height="22" rx="6"/><rect x="186" y="168" width="108" height="22" rx="6"/><rect x="206" y="228" width="68" height="24" rx="12"/></g>
<rect x="170" y="86" width="140" height="188" fill="url(#glass)"/>
</g>`,
      ['#eef3f8', '#cfdcea'],
    ),
  charging: () => {
    const lockers = [0, 1, 2, 3]
      .map((row) =>
        [0, 1]
          .map(
            (col) =>
              `<rect x="${168 + col * 76}" y="${96 + row * 72}" width="68" height="64" rx="4" fill="#2b3444"/><circle cx="${224 + col * 76}" cy="${128 + row * 72}" r="5" fill="#f4a261"/><rect x="${178 + col * 76}" y="${104 + row * 72}" width="22" height="40" rx="4" fill="#56627a"/><rect x="${182 + col * 76}" y="${110 + row * 72}" width="14" height="26" rx="2" fill="${row % 2 === col ? '#38ef7d' : '#9fc2ff'}"/>`,
          )
          .join(''),
      )
      .join('');
    return frame(
      `${shadow(240, 424, 120)}
<rect x="156" y="70" width="168" height="350" rx="10" fill="${INK}"/>
<rect x="164" y="78" width="152" height="12" rx="4" fill="#1d4ed8"/>
${lockers}
<rect x="172" y="392" width="136" height="16" rx="4" fill="#2b3444"/>
<path d="M244 396 l-10 12 h8 l-4 10 l12 -14 h-8 l4 -8 z" fill="#ffd166"/>`,
      ['#f0f5ea', '#d7e5c8'],
    );
  },
};

/** The demo products' pictures, in the seed's product order: file base name (as the seed links it) and drawing. */
export const PRODUCT_PICTURES = [
  { base: 'demo-led-monitor-55', draw: DRAWINGS.monitor },
  { base: 'demo-4k-display-70', draw: DRAWINGS.display4k },
  { base: 'demo-laptop', draw: DRAWINGS.laptop },
  { base: 'demo-wireless-microphone', draw: DRAWINGS.microphone },
  { base: 'demo-speakers-mixer', draw: DRAWINGS.speakers },
  { base: 'demo-projector-screen', draw: DRAWINGS.projector },
  { base: 'demo-ipad-kiosk', draw: DRAWINGS.kiosk },
  { base: 'demo-charging-station', draw: DRAWINGS.charging },
];
