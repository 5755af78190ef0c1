// Procedural SVG scenes for the placeholder gallery media: stages, LED walls, lighting, audiences, booths,
// consoles and title cards, drawn from shapes only (no photographs, no third-party artwork). Each scene is
// deterministic for its seed, so regenerating gives the same pictures.

/** mulberry32: a small seeded PRNG. */
export function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const PALETTES = [
  { sky: ['#0b1026', '#1d2a5a'], wall: ['#2a7de1', '#7b2ff7'], wash: '#3aa0ff', accent: '#f4a261' },
  { sky: ['#140b1f', '#3b1450'], wall: ['#ff5f6d', '#ffc371'], wash: '#ff6fb5', accent: '#ffd166' },
  { sky: ['#071a1a', '#0f3d3e'], wall: ['#11998e', '#38ef7d'], wash: '#2ee6a6', accent: '#e9f5db' },
  { sky: ['#1a0f05', '#4a2511'], wall: ['#f7971e', '#ffd200'], wash: '#ffb347', accent: '#fff3b0' },
  { sky: ['#0d1b2a', '#1b263b'], wall: ['#00c6ff', '#0072ff'], wash: '#4cc9f0', accent: '#b5470b' },
  { sky: ['#1b0a0a', '#4a1010'], wall: ['#cb2d3e', '#ef473a'], wash: '#ff7a59', accent: '#ffe8d6' },
];

const esc = (text) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const f = (n) => Math.round(n * 10) / 10;

function defs(p, id) {
  return `<defs>
<linearGradient id="sky${id}" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${p.sky[0]}"/><stop offset="1" stop-color="${p.sky[1]}"/></linearGradient>
<linearGradient id="wall${id}" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${p.wall[0]}"/><stop offset="1" stop-color="${p.wall[1]}"/></linearGradient>
<linearGradient id="beam${id}" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#fffbe6" stop-opacity="0.75"/><stop offset="1" stop-color="#fffbe6" stop-opacity="0"/></linearGradient>
<radialGradient id="wash${id}" cx="0.5" cy="1" r="0.9"><stop offset="0" stop-color="${p.wash}" stop-opacity="0.75"/><stop offset="1" stop-color="${p.wash}" stop-opacity="0"/></radialGradient>
<filter id="soft${id}"><feGaussianBlur stdDeviation="6"/></filter>
<filter id="glow${id}"><feGaussianBlur stdDeviation="14"/></filter>
</defs>`;
}

function beams(r, id, w, h, count, top = 0) {
  let out = '';
  for (let i = 0; i < count; i++) {
    const x = w * (0.1 + 0.8 * r());
    const spread = w * (0.04 + 0.06 * r());
    const lean = w * (r() - 0.5) * 0.5;
    out += `<polygon points="${f(x - 6)},${top} ${f(x + 6)},${top} ${f(x + lean + spread)},${f(h * 0.8)} ${f(x + lean - spread)},${f(h * 0.8)}" fill="url(#beam${id})" filter="url(#soft${id})" opacity="${f(0.35 + 0.4 * r())}"/>`;
  }
  return out;
}

function truss(w, y, h = 18) {
  let out = `<rect x="0" y="${y}" width="${w}" height="${h}" fill="#2b2f3a"/>`;
  for (let x = 0; x < w; x += h) {
    out += `<path d="M${x} ${y} L${x + h} ${y + h} M${x + h} ${y} L${x} ${y + h}" stroke="#50566a" stroke-width="2"/>`;
  }
  return out;
}

function audience(r, w, h, rows, color = '#04060c') {
  let out = `<g fill="${color}">`;
  for (let row = 0; row < rows; row++) {
    const y = h - row * (h * 0.045) + 10;
    const size = h * (0.05 - row * 0.006);
    for (let x = -20 + r() * 30; x < w + 20; x += size * (1.7 + r() * 0.5)) {
      out += `<circle cx="${f(x)}" cy="${f(y - size)}" r="${f(size * 0.55)}"/><rect x="${f(x - size * 0.8)}" y="${f(y - size * 0.5)}" width="${f(size * 1.6)}" height="${f(size * 1.4)}" rx="${f(size * 0.5)}"/>`;
    }
  }
  return `${out}</g>`;
}

function ledWall(r, id, x, y, w, h, title, p) {
  let out = `<rect x="${f(x - 8)}" y="${f(y - 8)}" width="${f(w + 16)}" height="${f(h + 16)}" fill="#111" />`;
  out += `<rect x="${f(x)}" y="${f(y)}" width="${f(w)}" height="${f(h)}" fill="url(#wall${id})"/>`;
  // Soft shapes on the screen content.
  for (let i = 0; i < 4; i++) {
    out += `<circle cx="${f(x + w * r())}" cy="${f(y + h * r())}" r="${f(h * (0.2 + 0.4 * r()))}" fill="#ffffff" opacity="${f(0.08 + 0.1 * r())}"/>`;
  }
  if (title) {
    const size = Math.min(h * 0.16, (w / Math.max(8, title.length)) * 1.6);
    out += `<text x="${f(x + w / 2)}" y="${f(y + h / 2 + size / 3)}" font-family="DejaVu Sans" font-weight="bold" font-size="${f(size)}" fill="#ffffff" text-anchor="middle">${esc(title)}</text>`;
    out += `<rect x="${f(x + w * 0.35)}" y="${f(y + h / 2 + size * 0.8)}" width="${f(w * 0.3)}" height="${f(size * 0.12)}" fill="${p.accent}"/>`;
  }
  return out;
}

function lectern(x, floor, s, p) {
  return `<polygon points="${f(x - s * 0.5)},${f(floor)} ${f(x + s * 0.5)},${f(floor)} ${f(x + s * 0.4)},${f(floor - s * 1.6)} ${f(x - s * 0.4)},${f(floor - s * 1.6)}" fill="#1a1d26"/><rect x="${f(x - s * 0.55)}" y="${f(floor - s * 1.75)}" width="${f(s * 1.1)}" height="${f(s * 0.2)}" fill="${p.accent}"/>`;
}

function person(x, floor, s, color = '#0a0c12') {
  return `<g fill="${color}"><circle cx="${f(x)}" cy="${f(floor - s * 2.1)}" r="${f(s * 0.28)}"/><rect x="${f(x - s * 0.35)}" y="${f(floor - s * 1.8)}" width="${f(s * 0.7)}" height="${f(s * 1.1)}" rx="${f(s * 0.2)}"/><rect x="${f(x - s * 0.3)}" y="${f(floor - s * 0.75)}" width="${f(s * 0.25)}" height="${f(s * 0.75)}"/><rect x="${f(x + s * 0.05)}" y="${f(floor - s * 0.75)}" width="${f(s * 0.25)}" height="${f(s * 0.75)}"/></g>`;
}

/** Scenes: each returns the inner SVG for a w×h canvas. */
const SCENES = {
  generalSession(r, id, w, h, p, title) {
    const floor = h * 0.72;
    return `<rect width="${w}" height="${h}" fill="url(#sky${id})"/>
${truss(w, h * 0.06)}
${beams(r, id, w, h, 6, h * 0.08)}
${ledWall(r, id, w * 0.22, h * 0.16, w * 0.56, h * 0.36, title, p)}
<rect x="${f(w * 0.04)}" y="${f(h * 0.2)}" width="${f(w * 0.12)}" height="${f(h * 0.3)}" fill="url(#wall${id})" opacity="0.8"/>
<rect x="${f(w * 0.84)}" y="${f(h * 0.2)}" width="${f(w * 0.12)}" height="${f(h * 0.3)}" fill="url(#wall${id})" opacity="0.8"/>
<rect x="0" y="${f(floor)}" width="${w}" height="${f(h * 0.05)}" fill="#151821"/>
<ellipse cx="${f(w / 2)}" cy="${f(floor)}" rx="${f(w * 0.45)}" ry="${f(h * 0.12)}" fill="url(#wash${id})"/>
${lectern(w * 0.7, floor, h * 0.08, p)}${person(w * 0.42, floor, h * 0.085)}
${audience(r, w, h, 4)}`;
  },
  breakout(r, id, w, h, p, title) {
    const floor = h * 0.78;
    let bars = '';
    for (let i = 0; i < 5; i++) {
      const bh = h * 0.05 + r() * h * 0.18;
      bars += `<rect x="${f(w * 0.33 + i * w * 0.07)}" y="${f(h * 0.5 - bh)}" width="${f(w * 0.045)}" height="${f(bh)}" fill="${i % 2 ? p.wall[0] : p.accent}"/>`;
    }
    let chairs = '';
    for (let row = 0; row < 3; row++) {
      for (let x = w * 0.05; x < w * 0.95; x += w * 0.07) {
        const y = floor + row * h * 0.07;
        chairs += `<rect x="${f(x)}" y="${f(y)}" width="${f(w * 0.045)}" height="${f(h * 0.05)}" rx="4" fill="#2a2f3d"/>`;
      }
    }
    return `<rect width="${w}" height="${h}" fill="#d9d4c7"/><rect width="${w}" height="${f(h * 0.12)}" fill="#bdb6a6"/>
<rect x="${f(w * 0.28)}" y="${f(h * 0.14)}" width="${f(w * 0.44)}" height="${f(h * 0.42)}" fill="#fbfbf8" stroke="#222" stroke-width="6"/>
<text x="${f(w * 0.5)}" y="${f(h * 0.22)}" font-family="DejaVu Sans" font-size="${f(Math.min(h * 0.035, ((w * 0.4) / (title ?? 'Quarterly results').length) * 1.7))}" fill="#222" text-anchor="middle">${esc(title ?? 'Quarterly results')}</text>
${bars}<rect x="${f(w * 0.3)}" y="${f(h * 0.5)}" width="${f(w * 0.4)}" height="3" fill="#555"/>
<rect x="0" y="${f(floor - h * 0.02)}" width="${w}" height="${f(h * 0.3)}" fill="#8c8474"/>
${person(w * 0.8, floor, h * 0.1, '#1f2430')}${lectern(w * 0.86, floor, h * 0.07, p)}
${chairs}${audience(r, w, h, 2, '#2b2f3b')}`;
  },
  gala(r, id, w, h, p) {
    let tables = '';
    for (let row = 0; row < 3; row++) {
      for (let i = 0; i < 5; i++) {
        const cx = w * (0.1 + i * 0.2) + (row % 2) * w * 0.1;
        const cy = h * (0.55 + row * 0.15);
        const rx = w * (0.06 + row * 0.012);
        tables += `<ellipse cx="${f(cx)}" cy="${f(cy)}" rx="${f(rx)}" ry="${f(rx * 0.35)}" fill="#f6f1e7"/><rect x="${f(cx - rx)}" y="${f(cy)}" width="${f(rx * 2)}" height="${f(h * 0.05)}" fill="#e8e0cf"/><circle cx="${f(cx)}" cy="${f(cy - rx * 0.25)}" r="${f(rx * 0.18)}" fill="${p.accent}" filter="url(#soft${id})"/>`;
      }
    }
    let uplights = '';
    for (let x = 0; x < w; x += w / 8) {
      uplights += `<rect x="${f(x + w * 0.02)}" y="${f(h * 0.05)}" width="${f(w * 0.08)}" height="${f(h * 0.45)}" fill="${p.wash}" opacity="0.55" filter="url(#glow${id})"/>`;
    }
    return `<rect width="${w}" height="${h}" fill="url(#sky${id})"/>${uplights}
<rect x="0" y="${f(h * 0.45)}" width="${w}" height="${f(h * 0.55)}" fill="#1a1410"/>
<ellipse cx="${f(w / 2)}" cy="${f(h * 0.45)}" rx="${f(w * 0.3)}" ry="${f(h * 0.06)}" fill="url(#wash${id})"/>
${tables}`;
  },
  tradeShow(r, id, w, h, p, title) {
    let booths = '';
    const names = ['MEDTEC', 'ORBIT', 'NOVA', 'LUMEN', 'CEDAR', 'VECTOR', 'PULSE', 'ATLAS'];
    for (let i = 0; i < 4; i++) {
      const x = w * (0.03 + i * 0.245);
      const bw = w * 0.22;
      const top = h * (0.3 + 0.05 * r());
      const name = names[Math.floor(r() * names.length)];
      booths += `<rect x="${f(x)}" y="${f(top)}" width="${f(bw)}" height="${f(h * 0.45)}" fill="${i % 2 ? '#f2f2f2' : '#e4e9f0'}"/>
<rect x="${f(x)}" y="${f(top)}" width="${f(bw)}" height="${f(h * 0.09)}" fill="url(#wall${id})"/>
<text x="${f(x + bw / 2)}" y="${f(top + h * 0.062)}" font-family="DejaVu Sans" font-weight="bold" font-size="${f(h * 0.04)}" fill="#fff" text-anchor="middle">${name}</text>
<rect x="${f(x + bw * 0.3)}" y="${f(top + h * 0.14)}" width="${f(bw * 0.4)}" height="${f(h * 0.13)}" fill="#111"/><rect x="${f(x + bw * 0.32)}" y="${f(top + h * 0.15)}" width="${f(bw * 0.36)}" height="${f(h * 0.11)}" fill="${p.wall[1]}" opacity="0.85"/>
<rect x="${f(x + bw * 0.48)}" y="${f(top + h * 0.27)}" width="${f(bw * 0.04)}" height="${f(h * 0.12)}" fill="#333"/>
<rect x="${f(x + bw * 0.1)}" y="${f(top + h * 0.33)}" width="${f(bw * 0.8)}" height="${f(h * 0.12)}" fill="#2b2f3a"/>`;
    }
    return `<rect width="${w}" height="${h}" fill="#c9ced6"/>
<rect x="${f(w * 0.3)}" y="${f(h * 0.04)}" width="${f(w * 0.4)}" height="${f(h * 0.12)}" fill="url(#wall${id})"/>
<text x="${f(w / 2)}" y="${f(h * 0.12)}" font-family="DejaVu Sans" font-weight="bold" font-size="${f(h * 0.045)}" fill="#fff" text-anchor="middle">${esc(title ?? 'EXHIBIT HALL')}</text>
<rect x="0" y="${f(h * 0.75)}" width="${w}" height="${f(h * 0.25)}" fill="#6b7280"/>
${booths}${person(w * 0.2, h * 0.92, h * 0.09)}${person(w * 0.55, h * 0.95, h * 0.1, '#1c2230')}${person(w * 0.8, h * 0.9, h * 0.085)}`;
  },
  console(r, id, w, h, p) {
    let faders = '';
    for (let i = 0; i < 24; i++) {
      const x = w * 0.08 + i * w * 0.035;
      const pos = h * (0.62 + 0.12 * r());
      faders += `<rect x="${f(x)}" y="${f(h * 0.58)}" width="4" height="${f(h * 0.18)}" fill="#0c0c0c"/><rect x="${f(x - 6)}" y="${f(pos)}" width="16" height="10" fill="#d9d9d9"/><circle cx="${f(x + 2)}" cy="${f(h * 0.53)}" r="5" fill="${i % 4 ? '#6b7280' : p.accent}"/>`;
    }
    let meters = '';
    for (let i = 0; i < 12; i++) {
      const mh = h * (0.05 + 0.12 * r());
      meters += `<rect x="${f(w * 0.58 + i * w * 0.025)}" y="${f(h * 0.38 - mh)}" width="${f(w * 0.015)}" height="${f(mh)}" fill="${mh > h * 0.13 ? '#ef4444' : '#22c55e'}"/>`;
    }
    return `<rect width="${w}" height="${h}" fill="url(#sky${id})"/>
${beams(r, id, w, h * 0.6, 3)}
<rect x="${f(w * 0.05)}" y="${f(h * 0.12)}" width="${f(w * 0.42)}" height="${f(h * 0.28)}" fill="#0d0f14" stroke="#333" stroke-width="4"/>
<rect x="${f(w * 0.07)}" y="${f(h * 0.14)}" width="${f(w * 0.38)}" height="${f(h * 0.24)}" fill="url(#wall${id})" opacity="0.85"/>
<rect x="${f(w * 0.55)}" y="${f(h * 0.12)}" width="${f(w * 0.4)}" height="${f(h * 0.28)}" fill="#0d0f14" stroke="#333" stroke-width="4"/>${meters}
<polygon points="0,${f(h * 0.46)} ${w},${f(h * 0.46)} ${w},${h} 0,${h}" fill="#23262e"/>${faders}`;
  },
  outdoor(r, id, w, h, p, title) {
    const floor = h * 0.7;
    return `<rect width="${w}" height="${h}" fill="url(#sky${id})"/>
<circle cx="${f(w * (0.1 + 0.8 * r()))}" cy="${f(h * 0.12)}" r="${f(h * 0.04)}" fill="#fff8e1" opacity="0.8"/>
<polygon points="${f(w * 0.15)},${f(h * 0.18)} ${f(w * 0.85)},${f(h * 0.18)} ${f(w * 0.8)},${f(h * 0.1)} ${f(w * 0.2)},${f(h * 0.1)}" fill="#2f3440"/>
<rect x="${f(w * 0.15)}" y="${f(h * 0.18)}" width="${f(w * 0.02)}" height="${f(floor - h * 0.18)}" fill="#2f3440"/><rect x="${f(w * 0.83)}" y="${f(h * 0.18)}" width="${f(w * 0.02)}" height="${f(floor - h * 0.18)}" fill="#2f3440"/>
${beams(r, id, w, h, 5, h * 0.18)}
${ledWall(r, id, w * 0.3, h * 0.24, w * 0.4, h * 0.24, title, p)}
<rect x="${f(w * 0.08)}" y="${f(h * 0.25)}" width="${f(w * 0.05)}" height="${f(h * 0.3)}" fill="#111"/><rect x="${f(w * 0.87)}" y="${f(h * 0.25)}" width="${f(w * 0.05)}" height="${f(h * 0.3)}" fill="#111"/>
<rect x="${f(w * 0.12)}" y="${f(floor)}" width="${f(w * 0.76)}" height="${f(h * 0.06)}" fill="#1b1e26"/>
<rect x="0" y="${f(floor + h * 0.06)}" width="${w}" height="${f(h * 0.3)}" fill="#1d3b1f"/>
${person(w * 0.5, floor, h * 0.09)}${audience(r, w, h, 5, '#05080a')}`;
  },
  camera(r, id, w, h, p, title) {
    const floor = h * 0.85;
    return `${SCENES.generalSession(r, id, w, h, p, title)}
<g fill="#0b0d12"><rect x="${f(w * 0.08)}" y="${f(h * 0.5)}" width="${f(w * 0.2)}" height="${f(h * 0.12)}" rx="8"/><rect x="${f(w * 0.26)}" y="${f(h * 0.52)}" width="${f(w * 0.08)}" height="${f(h * 0.08)}" rx="6"/>
<polygon points="${f(w * 0.18)},${f(h * 0.62)} ${f(w * 0.1)},${f(floor)} ${f(w * 0.12)},${f(floor)} ${f(w * 0.185)},${f(h * 0.64)}"/><polygon points="${f(w * 0.18)},${f(h * 0.62)} ${f(w * 0.26)},${f(floor)} ${f(w * 0.24)},${f(floor)} ${f(w * 0.175)},${f(h * 0.64)}"/></g>
<circle cx="${f(w * 0.25)}" cy="${f(h * 0.52)}" r="6" fill="#ef4444"/>`;
  },
  lineArray(r, id, w, h, _p) {
    let boxes = '';
    for (let i = 0; i < 10; i++) {
      const bw = w * 0.34;
      boxes += `<rect x="${f(w * 0.33 + i * w * 0.004)}" y="${f(h * 0.12 + i * h * 0.07)}" width="${f(bw)}" height="${f(h * 0.06)}" rx="6" fill="#15171d" stroke="#3a3f4d" stroke-width="3" transform="rotate(${f(i * 1.2)} ${f(w / 2)} ${f(h * 0.12 + i * h * 0.07)})"/>`;
    }
    return `<rect width="${w}" height="${h}" fill="url(#sky${id})"/>${beams(r, id, w, h, 4)}
<rect x="${f(w * 0.48)}" y="0" width="${f(w * 0.04)}" height="${f(h * 0.12)}" fill="#333"/>${boxes}
<ellipse cx="${f(w / 2)}" cy="${h}" rx="${w}" ry="${f(h * 0.25)}" fill="url(#wash${id})"/>`;
  },
  titleCard(r, id, w, h, p, title, subtitle) {
    let shapes = '';
    for (let i = 0; i < 7; i++) {
      shapes += `<circle cx="${f(w * r())}" cy="${f(h * r())}" r="${f(h * (0.1 + 0.35 * r()))}" fill="${i % 2 ? p.wall[0] : p.wall[1]}" opacity="${f(0.18 + 0.2 * r())}" filter="url(#glow${id})"/>`;
    }
    let bars = '';
    for (let i = 0; i < 12; i++) {
      bars += `<rect x="${f(w * r())}" y="${f(h * r())}" width="${f(w * (0.05 + 0.2 * r()))}" height="3" fill="${p.accent}" opacity="0.6"/>`;
    }
    const size = Math.min(h * 0.1, (w / Math.max(10, title.length)) * 1.7);
    return `<rect width="${w}" height="${h}" fill="url(#sky${id})"/>${shapes}${bars}
<text x="${f(w / 2)}" y="${f(h * 0.5)}" font-family="DejaVu Sans" font-weight="bold" font-size="${f(size)}" fill="#ffffff" text-anchor="middle">${esc(title)}</text>
<rect x="${f(w * 0.42)}" y="${f(h * 0.55)}" width="${f(w * 0.16)}" height="4" fill="${p.accent}"/>
${subtitle ? `<text x="${f(w / 2)}" y="${f(h * 0.64)}" font-family="DejaVu Sans" font-size="${f(size * 0.45)}" fill="#e5e7eb" text-anchor="middle">${esc(subtitle)}</text>` : ''}`;
  },
};

export const SCENE_KINDS = Object.keys(SCENES);

export function sceneSvg({ kind, seed, width, height, palette, title, subtitle }) {
  const r = rng(seed);
  const p = PALETTES[palette % PALETTES.length];
  const id = `s${seed}`;
  const draw = SCENES[kind];
  if (!draw) throw new Error(`unknown scene ${kind}`);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">${defs(p, id)}${draw(r, id, width, height, p, title, subtitle)}</svg>`;
}
