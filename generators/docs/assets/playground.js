// The playground: validates the payload with the event's validator module, copied unchanged from the
// group package (`pkg/<group>/events/<key>.js`): the same precompiled code the npm package ships.
const section = document.querySelector('[data-playground]');
if (section) {
  const input = section.querySelector('[data-playground-input]');
  const result = section.querySelector('[data-playground-result]');
  const run = section.querySelector('[data-playground-run]');
  const modes = section.querySelectorAll('[data-playground-mode]');
  const validator = import(new URL(section.dataset.module, document.baseURI).href);

  const check = async () => {
    let payload;
    try {
      payload = JSON.parse(input.value);
    } catch (error) {
      show('invalid', `Not JSON: ${error.message}`);
      return;
    }
    const mode = [...modes].find((radio) => radio.checked)?.value ?? 'strict';
    const { validate } = await validator;
    const verdict = validate(payload, { mode });
    if (verdict.valid) show('valid', 'valid');
    else show('invalid', JSON.stringify(verdict.error, null, 2));
  };

  function show(kind, text) {
    result.textContent = text;
    result.classList.toggle('valid', kind === 'valid');
    result.classList.toggle('invalid', kind !== 'valid');
    result.dataset.state = kind;
  }

  let timer;
  input.addEventListener('input', () => {
    clearTimeout(timer);
    timer = setTimeout(check, 150);
  });
  for (const radio of modes) radio.addEventListener('change', check);
  run.addEventListener('click', check);

  // "Random payload": the group package's own test data (`fake`, random variant), loaded on first use;
  // each click draws the next seed, so a page shows the same sequence every time.
  const random = section.querySelector('[data-playground-random]');
  if (random) {
    let testing;
    let seed = 0;
    random.addEventListener('click', async () => {
      try {
        testing ??= Promise.all([
          import(new URL(section.dataset.testing, document.baseURI).href),
          import(new URL(section.dataset.testingData, document.baseURI).href),
        ]).then(([{ defineTesting }, { data }]) => defineTesting(section.dataset.package, data));
        const payload = (await testing).fake(section.dataset.key, { seed: seed++, variant: 'random' });
        input.value = JSON.stringify(payload, null, 2);
        // No verdict is shown for the new payload until its check is done.
        result.dataset.state = 'checking';
        await check();
      } catch (error) {
        show('invalid', `The test data could not be loaded: ${error.message}`);
      }
    });
  }
  check().catch((error) => show('invalid', `The validator could not be loaded: ${error.message}`));
}
