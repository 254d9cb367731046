import { type Catalogue, eventDescription } from '../model.js';
import { componentRef, componentSchemas } from '../schema/components.js';
import { documentFiles, generatedNote, type OutputFile } from './context.js';

/**
 * The AsyncAPI 3.0 document: per event version a channel (address = the event key), a message and a
 * `send` operation; payloads reference the same component schemas as the OpenAPI document.
 */
export function buildAsyncApi(model: Catalogue): Record<string, unknown> {
  const keys = Object.keys(model.events).sort();
  const channels: Record<string, unknown> = {};
  const operations: Record<string, unknown> = {};
  const messages: Record<string, unknown> = {};
  for (const key of keys) {
    const event = model.events[key]!;
    messages[key] = {
      name: key,
      title: event.title,
      summary: `${event.type} ${event.version}`,
      description: eventDescription(event),
      contentType: 'application/json',
      payload: { $ref: componentRef(key) },
      tags: [{ name: event.group }],
      'x-event-type': event.type,
      'x-event-version': event.version,
    };
    channels[key] = {
      address: key,
      title: event.title,
      messages: { [key]: { $ref: `#/components/messages/${key}` } },
    };
    operations[`send.${key}`] = {
      action: 'send',
      title: `Emit ${key}`,
      channel: { $ref: `#/channels/${key}` },
      messages: [{ $ref: `#/channels/${key}/messages/${key}` }],
      tags: [{ name: event.group }],
    };
  }
  return {
    asyncapi: '3.0.0',
    info: {
      title: model.config.title,
      version: model.config.version,
      ...(model.config.description ? { description: model.config.description } : {}),
      tags: model.groups.map((group) => ({ name: group.slug, description: group.title })),
      'x-generated-by': generatedNote('catalogue/'),
      'x-catalogue-hash': model.hash,
    },
    defaultContentType: 'application/json',
    channels,
    operations,
    components: { schemas: componentSchemas(model), messages },
  };
}

/** Emits `catalogue/asyncapi.json` and its YAML copy. */
export function emitAsyncApi(model: Catalogue): OutputFile[] {
  return documentFiles('catalogue/asyncapi', buildAsyncApi(model));
}
