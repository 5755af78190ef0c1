#!/usr/bin/env node
/**
 * Writes api/src/modules/accounts/common-passwords.ts: the passwords refused at registration and reset
 * because they are among the first any guessing attack tries. Nothing is downloaded; the list is
 * assembled from the well-known shapes of weak passwords seen in every published breach ranking:
 * popular words and names with the usual digit and symbol endings, digit runs and repeats, keyboard
 * walks, and years. Only entries the password policy would otherwise accept (8 to 64 characters) are
 * kept, lowercased, since the check compares lowercased text.
 *
 *   node build/scripts/common-passwords.mjs
 *
 * The output is committed; run this again only to change the list.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const OUT = fileURLToPath(new URL('../../api/src/modules/accounts/common-passwords.ts', import.meta.url));
const MIN = 8;
const MAX = 64;

// Words that top every published list of leaked passwords, and their usual spellings.
const WORDS = `
password passw0rd p@ssword p@ssw0rd pa55word pa55w0rd passwort motdepasse contrasena senha parola
qwerty qwertyuiop asdfgh asdfghjkl zxcvbn zxcvbnm azerty qwertz
letmein welcome welcome1 iloveyou iloveu loveyou lovely loveme trustno1 whatever nothing secret
secret1 monkey dragon master shadow sunshine princess football baseball basketball soccer hockey
superman batman spiderman ironman starwars pokemon naruto matrix hunter hunter2 ranger killer
freedom flower hello hello123 charlie donald michael jordan jordan23 jennifer jessica ashley
michelle daniel thomas robert andrew joshua matthew anthony william george harley maggie buster
ginger summer winter autumn spring august october november december january february september
computer internet access admin administrator root login guest user default changeme change
test testing tester demo sample example temp temporary abc abcd abcde abcdef qazwsx
cheese cookie cookies chocolate banana orange apple pepper butter candy sugar honey coffee
tigger tiger lion eagle falcon phoenix mustang ferrari porsche corvette mercedes yamaha harley
chelsea arsenal liverpool manchester barcelona madrid juventus united yankees cowboys steelers
lakers eagles patriots packers dallas boston london paris berlin america canada mexico texas
jesus christ angel angels heaven blessed faith genesis god godisgood
killer1 hacker matrix1 ninja samurai warrior zombie vampire wizard merlin gandalf legend
mother father family friend friends buddy baby babygirl babyboy sweety sweetie honey1 darling
love lover forever always together kitty kitten puppy doggie snoopy scooby garfield mickey
minnie tweety pookie smokey shadow1 silver golden diamond crystal rainbow butterfly dolphin
sunflower snowball blue red green purple yellow black white pink orange1 mylove mybaby
happy smile lucky happy1 money cash rich dollar bitcoin crypto gaming gamer player playstation
xbox nintendo mario zelda minecraft fortnite roblox runescape warcraft diablo
thunder lightning storm hurricane tornado rocket galaxy planet jupiter mercury
soccer1 football1 baseball1 hockey1 golf tennis boxing fishing hunting camping
qwerty1 qwerty12 qwerty123 asdf asdf1234 zaq12wsx 1qaz2wsx qazwsxedc 1q2w3e4r 1q2w3e 1q2w3e4r5t
q1w2e3r4 q1w2e3r4t5 a1b2c3d4 a1s2d3f4 1a2b3c4d abc123 abcd1234 abc12345 aa123456 a123456
welcomehome letmein1 iloveyou1 iloveyou2 password1 password12 password123 passw0rd1
adminadmin administrator1 rootroot useruser testtest guestguest qwertyqwerty
trustno1 starwars1 whatever1 sunshine1 princess1 charlie1 superman1 michael1 jennifer1
babygirl1 monkey1 dragon1 master1 computer1 freedom1 flower1 cheese1 chocolate1 secret123
corona covid pandemic lockdown zoom teams office company business work
northbeam events event production video studio
`;

// First names common enough to appear in every ranking.
const NAMES = `
james john robert michael william david richard joseph thomas charles christopher daniel matthew
anthony mark donald steven paul andrew joshua kenneth kevin brian george timothy ronald edward
jason jeffrey ryan jacob gary nicholas eric jonathan stephen larry justin scott brandon benjamin
samuel gregory alexander frank patrick raymond jack dennis jerry tyler aaron jose adam nathan
henry douglas zachary peter kyle ethan walter noah jeremy christian keith roger terry gerald
harold sean austin carl arthur lawrence dylan jesse jordan bryan billy joe bruce gabriel logan
albert willie alan juan wayne elijah randy roy vincent ralph eugene russell bobby mason philip
louis mary patricia jennifer linda elizabeth barbara susan jessica sarah karen lisa nancy betty
margaret sandra ashley kimberly emily donna michelle carol amanda dorothy melissa deborah
stephanie rebecca sharon laura cynthia kathleen amy angela shirley anna brenda pamela emma
nicole helen samantha katherine christine debra rachel carolyn janet catherine maria heather
diane ruth julie olivia joyce virginia victoria kelly lauren christina joan evelyn judith megan
andrea cheryl hannah jacqueline martha gloria teresa ann sara madison frances kathryn janice
jean abigail alice judy sophia grace denise amber doris marilyn danielle beverly isabella theresa
diana natalie brittany charlotte marie kayla alexis lori
`;

const split = (text) => text.split(/\s+/).filter(Boolean);

const ENDINGS = [
  '',
  '1',
  '12',
  '123',
  '1234',
  '12345',
  '!',
  '1!',
  '123!',
  '01',
  '69',
  '99',
  '2023',
  '2024',
  '2025',
];
const NAME_ENDINGS = ['1', '12', '123', '1234', '!'];

const out = new Set();
const add = (value) => {
  const lower = value.toLowerCase();
  const length = Array.from(lower).length;
  if (length < MIN || length > MAX) return;
  if (/[`\\]|\$\{/.test(lower)) return; // kept out so the list can live in a template literal
  out.add(lower);
};

for (const word of split(WORDS)) {
  for (const ending of ENDINGS) add(word + ending);
  add(word + word);
  add(`${word}!@#`);
  add(`my${word}`);
}
for (const name of split(NAMES)) {
  for (const ending of NAME_ENDINGS) add(name + ending);
  add(`${name}${name}`);
  add(`iloveyou${name}`);
  add(`ilove${name}`);
}

// Digit runs, their reversals and partial reversals.
const DIGITS = '12345678901234567890';
for (let start = 0; start < 10; start++) {
  for (let length = MIN; length <= 12; length++) add(DIGITS.slice(start, start + length));
}
for (let length = MIN; length <= 12; length++) {
  add('9876543210987654321'.slice(0, length));
  add('0987654321'.padEnd(length, '0').slice(0, length));
}
for (let d = 0; d <= 9; d++) {
  for (let length = MIN; length <= 16; length++) add(String(d).repeat(length));
}
// Repeated short blocks: 12121212, 123123123, 11223344, 12341234...
for (const block of [
  '12',
  '21',
  '123',
  '321',
  '1234',
  '4321',
  '12345',
  'abc',
  'abcd',
  'ab',
  'xo',
  'qwe',
  'asd',
  'zxc',
  '007',
  '69',
]) {
  for (let times = 2; times <= 6; times++) add(block.repeat(times));
}
for (const pair of [
  '1122334455',
  '112233445566',
  '11223344',
  '1212312341234',
  '147258369',
  '159753',
  '159357',
  '789456123',
  '741852963',
  '963852741',
  '147852369',
  '123654789',
  '1234qwer',
  'qwer1234',
  '1qazxsw2',
  'zaq1xsw2',
  'zaq1zaq1',
  '!qaz2wsx',
  '1qaz!qaz',
  'qweasdzxc',
  'qweasd123',
  'asdasdasd',
  'asdfasdf',
  'qwerqwer',
  'zxcvzxcv',
  'poiuytrewq',
  'lkjhgfdsa',
  'mnbvcxz',
  'qwertyui',
  'asdfghjk',
  'zxcvbnm,',
  '1q2w3e4r5t6y',
  'q1w2e3r4t5y6',
  '1qaz2wsx3edc',
  'qazwsxedcrfv',
  'zaqxswcde',
  'qwe123qwe',
  'abcdefgh',
  'abcdefghi',
  'abcdefghij',
  'abcdefg1',
  'abcdefg123',
  'aaaaaaaa',
  'aaaaaaaaa',
  'aaaaaaaaaa',
  'zzzzzzzz',
  'xxxxxxxx',
  'qqqqqqqq',
  'asdfqwer',
  'passpass',
  'pass1234',
  'pass12345',
  'pass@123',
  'admin123',
  'admin1234',
  'admin12345',
  'admin@123',
  'root1234',
  'user1234',
  'test1234',
  'test12345',
  'demo1234',
  'guest123',
  'login123',
  'welcome123',
  'welcome@123',
  'changeme1',
  'changeme123',
  'default1',
  'letmein123',
  'iloveyou123',
  'sunshine123',
  'football123',
  'monkey123',
  'dragon123',
  'princess123',
  'qwerty12345',
  'qwerty123456',
  'password1234',
  'password12345',
  'password!',
  'password@123',
  'p@ssw0rd1',
  'p@ssw0rd123',
  'passw0rd!',
  'pa$$word',
  'pa$$w0rd',
  'p@$$w0rd',
])
  add(pair);

// Letter runs a-z and keyboard rows of every length from MIN.
for (const row of [
  'abcdefghijklmnopqrstuvwxyz',
  'qwertyuiop',
  'asdfghjkl',
  'zxcvbnm',
  '1234567890qwertyuiop',
  'qwertyuiopasdfghjklzxcvbnm',
  '1qaz2wsx3edc4rfv5tgb6yhn',
  'zyxwvutsrqponmlkjihgfedcba',
]) {
  for (let start = 0; start < row.length; start++) {
    for (let length = MIN; length <= Math.min(16, row.length - start); length++)
      add(row.slice(start, start + length));
  }
}

// Years: doubled, and after the two most common words.
for (let year = 1960; year <= 2026; year++) {
  add(`${year}${year}`);
  add(`password${year}`);
  add(`qwerty${year}`);
}

const list = [...out].sort();
const header = `/**
 * Common passwords refused by the password policy: ${list.length} entries, lowercased, 8 to 64 characters.
 * Generated by build/scripts/common-passwords.mjs from the well-known shapes of weak passwords (popular
 * words and names with the usual endings, digit runs, repeats, keyboard walks, years); nothing was
 * downloaded. Do not edit by hand: change the script and run it again.
 */
// prettier-ignore
export const COMMON_PASSWORDS_TEXT: string = \`
${list.join('\n')}
\`;
`;
writeFileSync(OUT, header);
process.stdout.write(`wrote ${list.length} passwords to ${OUT}\n`);
