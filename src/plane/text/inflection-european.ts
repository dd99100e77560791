/**
 * Person inflection of Spanish, Portuguese, Italian, German and Russian verbs (issue 24). The Snowball stemmers
 * (`@orama/stemmers`) already join the regular present and past forms of a verb ("estudio" /
 * "estudia" → "estudi", "moro" / "mora" → "mor", "studio" / "studia" → "stud"); what they cannot
 * join are the irregular verbs, whose first person changes its stem ("tengo" / "tiene", "hago" /
 * "hace" / "hizo", "vado" / "va", "faço" / "faz"). For those, each form listed below gains the
 * Snowball stem of its infinitive as an extra term, which the verb's regular forms ("tenemos",
 * "tener") already have. The forms are those of the standard conjugation tables (Real Academia
 * Española, *Nueva gramática*, ch. 4–5 and its *Modelos de conjugación*; C. Cunha & L. Cintra,
 * *Nova Gramática do Português Contemporâneo*, ch. 13; M. Dardano & P. Trifone, *Grammatica
 * italiana*, ch. 9): present 1st, 2nd and 3rd singular and 3rd plural, preterite / passato remoto
 * 1st and 3rd singular, and the irregular past participle where one exists. Forms that are stop
 * words of the language are dropped before this runs.
 *
 * Spanish also: the preterite 3rd singular of "-iar" verbs ("estudió") has the Snowball stem
 * "estud" where the rest of the verb has "estudi"; a word ending in "-ió" gains stem + "i".
 *
 * @module
 */

type Table = Readonly<Record<string, string>>;

/** Builds form → infinitive from "infinitive: form form …" lines. */
function table(lines: string): Table {
  const out: Record<string, string> = {};
  for (const line of lines.trim().split('\n')) {
    const [lemma, forms] = line.split(':') as [string, string];
    for (const f of forms.trim().split(/\s+/u)) {
      const key = f.normalize('NFC');
      // A form of two verbs (Spanish "fui": ir and ser) keeps both, joined by "|".
      out[key] = out[key] === undefined ? lemma.trim() : `${out[key]}|${lemma.trim()}`;
    }
  }
  return out;
}

const ES = table(`
tener: tengo tienes tiene tienen tuve tuvo tuviste
venir: vengo vienes viene vienen vine vino viniste
hacer: hago haces hace hacen hice hizo hiciste hecho
poner: pongo pones pone ponen puse puso puesto
salir: salgo sales sale salen
decir: digo dices dice dicen dije dijo dicho
traer: traigo traes trae traen traje trajo
conocer: conozco conoces conoce conocen
ir: voy vas va van fui fue fuiste fueron
ser: soy eres es son fui fue fuiste fueron
estar: estoy estás está están estuve estuvo
saber: sé sabes sabe saben supe supo
dar: doy das da dan di dio
ver: veo ves ve ven vi vio visto
poder: puedo puedes puede pueden pude pudo
querer: quiero quieres quiere quieren quise quiso
jugar: juego juegas juega juegan
dormir: duermo duermes duerme duermen durmió
pedir: pido pides pide piden pidió
seguir: sigo sigues sigue siguen siguió
elegir: elijo eliges elige eligen eligió
conducir: conduzco conduces conduce conducen conduje condujo
oír: oigo oyes oye oyen oyó
leer: leo lees lee leen leyó
escribir: escrito
volver: vuelvo vuelves vuelve vuelven vuelto
empezar: empiezo empiezas empieza empiezan empecé
`);

const PT = table(`
ter: tenho tens tem têm tive teve
fazer: faço fazes faz fazem fiz fez feito
ir: vou vais vai vão fui foi
ser: sou és é são fui foi
estar: estou estás está estão estive esteve
poder: posso podes pode podem pude pôde
querer: quero queres quer querem quis quis
dizer: digo dizes diz dizem disse dito
trazer: trago trazes traz trazem trouxe
saber: sei sabes sabe sabem soube
ver: vejo vês vê veem vi viu visto
vir: venho vens vem vêm vim veio
dar: dou dás dá dão dei deu
pôr: ponho pões põe põem pus pôs posto
ler: leio lês lê leem li leu
sair: saio sais sai saem saí saiu
dormir: durmo dormes dorme dormem
ouvir: ouço ouves ouve ouvem
pedir: peço pedes pede pedem
perder: perco perdes perde perdem
escrever: escrito
`);

const IT = table(`
andare: vado vai va vanno andai andò
fare: faccio fai fa fanno feci fece fatto
essere: sono sei è siamo sono fui fu stato stata
avere: ho hai ha hanno ebbi ebbe
venire: vengo vieni viene vengono venni venne venuto venuta
tenere: tengo tieni tiene tengono tenni tenne
uscire: esco esci esce escono
potere: posso puoi può possono potei poté
volere: voglio vuoi vuole vogliono volli volle
dovere: devo devi deve devono
sapere: so sai sa sanno seppi seppe
dire: dico dici dice dicono dissi disse detto
bere: bevo bevi beve bevono bevvi bevve bevuto
rimanere: rimango rimani rimane rimangono rimasi rimase rimasto
scegliere: scelgo scegli sceglie scelgono scelsi scelse scelto
leggere: lessi lesse letto
scrivere: scrissi scrisse scritto
prendere: presi prese preso
vedere: vidi vide visto
vivere: vissi visse vissuto
conoscere: conobbi conobbe
correre: corsi corse corso
nascere: nacqui nacque nato nata
mettere: misi mise messo
`);

/**
 * German strong verbs whose 2nd and 3rd singular change the stem vowel e → i / ie (Duden, *Die
 * Grammatik*, §§ 640–660): "liest" / "lese", "isst" / "esse". The a → ä, au → äu change
 * ("fährt", "läuft") is undone by rule in {@link germanPersonKeys}.
 */
const DE = table(`
lesen: liest liest
essen: isst
sehen: sieht siehst
nehmen: nimmt nimmst
geben: gibt gibst
helfen: hilft hilfst
sprechen: spricht sprichst
treffen: trifft triffst
werfen: wirft wirfst
vergessen: vergisst
empfehlen: empfiehlt
sterben: stirbt
werden: wird wirst
wissen: weiß weißt
`);

/**
 * h-person2: the Präteritum (1st and 3rd singular alike) and participle II of common strong and
 * mixed German verbs, whose stem vowel changes by ablaut (Duden, *Die Grammatik*, §§ 640–660 and
 * its list of strong and irregular verbs): "trank" / "getrunken" / "trinke", "schrieb" /
 * "schreibe". Each form gains the Snowball stem of its infinitive, as {@link DE}'s do.
 */
const DE_ABLAUT = table(`
trinken: trank trankst getrunken
singen: sang sangst gesungen
schwimmen: schwamm schwammst geschwommen
finden: fand fandst gefunden
beginnen: begann begannst begonnen
gewinnen: gewann gewannst gewonnen
schreiben: schrieb schriebst geschrieben
bleiben: blieb bliebst geblieben
steigen: stieg stiegst gestiegen
treiben: trieb triebst getrieben
leihen: lieh geliehen
scheinen: schien geschienen
schreien: schrie geschrien
greifen: griff gegriffen
reiten: ritt geritten
streiten: stritt gestritten
schneiden: schnitt geschnitten
leiden: litt gelitten
fliegen: flog flogst geflogen
ziehen: zog zogst gezogen
verlieren: verlor verlorst verloren
frieren: fror gefroren
schließen: schloss geschlossen
lügen: log gelogen
bieten: bot geboten
fließen: floss geflossen
riechen: roch gerochen
sprechen: sprach sprachst gesprochen
treffen: traf trafst getroffen
nehmen: nahm nahmst genommen
helfen: half halfst geholfen
werfen: warf geworfen
sterben: starb gestorben
brechen: brach gebrochen
stehlen: stahl gestohlen
empfehlen: empfahl empfohlen
lesen: las lasest
sehen: sah sahst
geben: gab gabst
essen: aß aßt gegessen
vergessen: vergaß vergessen
sitzen: saß saßt gesessen
liegen: lag lagst gelegen
bitten: bat gebeten
kommen: kam kamst
fahren: fuhr fuhrst
tragen: trug trugst
schlagen: schlug geschlagen
waschen: wusch gewaschen
wachsen: wuchs gewachsen
laufen: lief liefst
schlafen: schlief schliefst
fallen: fiel fielst
halten: hielt hieltst
lassen: ließ
rufen: rief gerufen
gehen: ging gingst gegangen
stehen: stand standst gestanden
tun: tat tatst getan
sein: war warst gewesen
bringen: brachte gebracht
denken: dachte gedacht
kennen: kannte gekannt
nennen: nannte genannt
rennen: rannte gerannt
wissen: wusste gewusst
`);

/**
 * Russian verbs whose 1st singular mutates the stem consonant or whose stem alternates
 * (В. В. Виноградов et al., *Грамматика русского языка* / Russian Grammar 1980, §§ 1477–1520):
 * "хожу" / "ходит", "пишу" / "пишет", "люблю" / "любит", "пью" / "пьёт".
 */
const RU = table(`
ходить: хожу ходишь ходит ходят
ездить: езжу ездишь ездит ездят
водить: вожу водишь водит водят
возить: вожу возишь возит возят
писать: пишу пишешь пишет пишут
любить: люблю любишь любит любят
готовить: готовлю готовишь готовит готовят
купить: куплю купишь купит купят
платить: плачу платишь платит платят
видеть: вижу видишь видит видят
сидеть: сижу сидишь сидит сидят
хотеть: хочу хочешь хочет хотят
мочь: могу можешь может могут
пить: пью пьёшь пьёт пьют пьешь пьет
петь: пою поёшь поёт поют поешь поет
жить: живу живёшь живёт живут живешь живет
спать: сплю спишь спит спят
рисовать: рисую рисуешь рисует рисуют
танцевать: танцую танцуешь танцует танцуют
`);

const TABLES: Readonly<Record<string, Table>> = { es: ES, pt: PT, it: IT, de: DE, ru: RU };

const DE_UMLAUT: Readonly<Record<string, string>> = { ä: 'a', ö: 'o', ü: 'u' };

/**
 * German: the Snowball stemmer keeps the person endings "-t", "-st", "-et" ("spielt", "spiele"
 * → "spielt", "spiel") and the "ge-…-t" participle ("gekauft"). The key is the Snowball stem of
 * the word without them ("spielt", "spielst", "gespielt" → "spiel"; "arbeitet" → "arbeit"),
 * with the umlaut of a strong verb's 3rd singular undone ("fährt" → "fahr"), and for the
 * irregular forms above the stem of the infinitive ("liest" → "les").
 */
export function germanPersonKeys(word: string, stem: (w: string) => string): string[] {
  const out: string[] = [];
  const lemmas = DE[word];
  if (lemmas !== undefined) for (const l of lemmas.split('|')) out.push(stem(l));
  const ablaut = DE_ABLAUT[word];
  if (ablaut !== undefined) for (const l of ablaut.split('|')) if (!out.includes(stem(l))) out.push(stem(l));
  let w = word;
  // h-lang: the strong participle II, "ge-…-en" (Duden, *Die Grammatik*, as above): "gebacken" /
  // "backe", "gelesen" / "lese", "gelaufen" / "laufe" meet on the Snowball stem of the root.
  if (w.startsWith('ge') && w.endsWith('en') && w.length >= 7) out.push(stem(w.slice(2, -2)));
  if (w.startsWith('ge') && w.endsWith('t') && w.length >= 6) w = w.slice(2);
  const m = /^(.{3,}?)(?:est|et|st|t)$/u.exec(w);
  if (m !== null) {
    const base = m[1] as string;
    out.push(stem(base));
    const plain = base.replace(/[äöü]/gu, (c) => DE_UMLAUT[c] ?? c);
    if (plain !== base) out.push(stem(plain));
  }
  return out;
}

/** Perfectivising prefixes, longest first (Russian Grammar 1980, §§ 1410–1440). */
const RU_PERFECTIVE_PREFIXES = ['пере', 'про', 'при', 'по', 'на', 'за', 'вы', 'от', 'с', 'у'];

/**
 * Russian: the stem of the infinitive for the listed forms (consonant mutation, "ё"), and for
 * every other word the Snowball stem with "ё" read as "е" (the Snowball stemmer leaves "живёт"
 * whole).
 */
export function russianPersonKeys(word: string, stem: (w: string) => string): string[] {
  const out: string[] = [];
  const lemmas = RU[word];
  if (lemmas !== undefined) for (const l of lemmas.split('|')) out.push(stem(l));
  if (word.includes('ё')) out.push(stem(word.replace(/ё/gu, 'е')));
  // h-lang: verbs in "-чь" keep к / г only in the 1st singular and 3rd plural ("пеку" / "печёт",
  // "могу" / "может"; Russian Grammar 1980, the sections above): those forms also get the stem
  // with ч / ж.
  const m = /^(.{2,})[кг](?:у|ут)$/u.exec(word);
  if (m !== null) {
    const k = stem(word);
    if (/[кг]$/u.test(k)) out.push(k.slice(0, -1) + (k.endsWith('к') ? 'ч' : 'ж'));
  }
  // … and their other persons the stem before ё / е ("печёт", "может" → "печ", "мож"), which
  // Snowball leaves whole.
  const e = /^(.{2,}[чж])(?:ёт|ет|ёшь|ешь|ём|ем|ёте|ете)$/u.exec(word);
  if (e !== null) out.push(e[1] as string);
  // h-person2: the consonant alternation of the 1st singular of 2nd-conjugation verbs (Russian
  // Grammar 1980, §§ 1477–1520): с → ш, з / д → ж, т → ч, ст → щ, and the epenthetic л after
  // б п в м ф ("ношу" / "носит", "вожу" / "водит", "плачу" / "платит", "куплю" / "купит"). A 1st
  // singular in -шу -жу -чу -щу -[бпвмф]лю also gets the stem of its other persons, one per
  // consonant it may come from.
  const alt = /^(.{2,}?)(ш|ж|ч|щ|[бпвмф]л)(?:у|ю)$/u.exec(word);
  if (alt !== null) {
    const head = alt[1] as string;
    const c = alt[2] as string;
    const back = c === 'ш' ? ['с'] : c === 'ж' ? ['з', 'д'] : c === 'ч' ? ['т'] : c === 'щ' ? ['ст'] : [c[0] as string];
    for (const b of back) if (!out.includes(head + b)) out.push(head + b);
  }
  // h-person2: the past tense, the infinitive stem + л / ла / ло / ли (Russian Grammar 1980,
  // §§ 1521–1530): "посмотрел" / "отдыхала" → "посмотре" / "отдыха", and for a 2nd-conjugation
  // verb the present stem without its е / и ("посмотре" → "посмотр", as "смотрит" stems). A
  // perfective made by a prefix (§§ 1410–1440: по-, про-, с-, на-, за-, вы-, при-, у-, от-, пере-)
  // also gets the key without it, which its imperfective has ("прочитала" / "читает" → "чита").
  const past = /^(.{3,}[аяеиоуы])л(?:а|о|и)?$/u.exec(word);
  if (past !== null) {
    const bases = [past[1] as string];
    if (/[еи]$/u.test(bases[0] as string)) bases.push((bases[0] as string).slice(0, -1));
    for (const b of bases) {
      if (!out.includes(b)) out.push(b);
      for (const p of RU_PERFECTIVE_PREFIXES) {
        if (b.startsWith(p) && b.length - p.length >= 3) {
          if (!out.includes(b.slice(p.length))) out.push(b.slice(p.length));
          break;
        }
      }
    }
  }
  return out;
}

/**
 * Person-neutral keys of a Spanish, Portuguese or Italian verb form: the Snowball stem of the
 * infinitive of a listed irregular form ("tengo", "tiene", "tuvo" → stem("tener") = "ten"), for
 * Spanish "-ió" preterites the stem + "i", the stem with g restored after j ("dirijo" →
 * "dirig"), and an Italian past participle's infinitive stem ("andata" → "andar", "dipinto" →
 * "diping").
 * `[]` for every other word.
 * @param lang - `"es"`, `"pt"` or `"it"`.
 * @param word - lower-case, NFC.
 * @param stem - the language's Snowball stemmer.
 */
export function romancePersonKeys(lang: string, word: string, stem: (w: string) => string): string[] {
  const out: string[] = [];
  const lemmas = TABLES[lang]?.[word];
  if (lemmas !== undefined) for (const l of lemmas.split('|')) out.push(stem(l));
  if (lang === 'es' && word.length > 4 && word.endsWith('ió')) out.push(`${stem(word)}i`);
  // h-lang, an orthographic alternation of regular verbs (RAE, *Ortografía de la lengua
  // española* 2010, the letters g and j; Cunha & Cintra ch. 13): "-gir" / "-ger" verbs write j
  // before a and o: a 1st singular "dirijo" gets the g of "dirige" back ("-jar" verbs such as
  // "trabajo" gain a key no other word has).
  if ((lang === 'es' || lang === 'pt') && word.endsWith('jo')) {
    const k = stem(word);
    if (k.endsWith('j')) out.push(`${k.slice(0, -1)}g`);
  }
  // h-lang, past participles: the stem of their infinitive, which Snowball does not reach on
  // short verbs ("andata" → "andat", "andare" → "andar"). Italian -ato / -uto / -ito of the three
  // conjugations, and -nto of the "-ngere" verbs ("dipinto" / "dipinge", "pianto" / "piange";
  // Dardano & Trifone ch. 9). Spanish and Portuguese ones need none: Snowball joins them.
  if (lang === 'it') {
    const p = /^(.{2,})([aui])t[oaie]$/u.exec(word);
    if (p !== null) out.push(stem(`${p[1]}${p[2] === 'a' ? 'are' : p[2] === 'u' ? 'ere' : 'ire'}`));
    const n = /^(.{2,}[iu])nt[oaie]$/u.exec(word);
    if (n !== null) out.push(stem(`${n[1]}ngere`));
  }
  return out;
}
