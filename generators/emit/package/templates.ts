import Handlebars from 'handlebars';
import { readToolkitFile } from '../../shared/toolkit-files.js';

const handlebars = Handlebars.create();
// Every value reaching generated code goes through one of these: nothing is pasted in raw.
handlebars.registerHelper('json', (value: unknown) => JSON.stringify(value));
handlebars.registerHelper('comment', (value: unknown) => String(value).replaceAll('*/', '*\\/'));

const compiled = new Map<string, Handlebars.TemplateDelegate>();
let partialsLoaded = false;

/**
 * Renders `templates/<name>.hbs`. Output is code and markdown, not HTML: no HTML escaping; values are
 * escaped by the helpers above, and `strict` makes a misspelled variable fail the build.
 */
export function render(name: string, data: object): string {
  if (!partialsLoaded) {
    handlebars.registerPartial(
      'event-validators',
      readToolkitFile('emit/package/templates/event-validators.hbs'),
    );
    partialsLoaded = true;
  }
  let template = compiled.get(name);
  if (!template) {
    template = handlebars.compile(readToolkitFile(`emit/package/templates/${name}.hbs`), {
      noEscape: true,
      strict: true,
    });
    compiled.set(name, template);
  }
  return template(data);
}
