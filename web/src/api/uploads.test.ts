import fs from 'node:fs';
import path from 'node:path';
import { AxiosHeaders, type AxiosResponse, type InternalAxiosRequestConfig } from 'axios';
import { beforeEach, describe, expect, it } from 'vitest';
import { stubBrowser } from '@/test/browser';
import { http, post, put } from './client';
import { uploadHelpImage } from './help';
import { uploadStorageImage } from './storage';

let seen: InternalAxiosRequestConfig[];

function adapter(config: InternalAxiosRequestConfig): Promise<AxiosResponse> {
  seen.push(config);
  return Promise.resolve({
    status: 200,
    statusText: '',
    data: { code: 0, msg: 'success', data: { name: 'a.png', url: '/x/a.png' } },
    headers: new AxiosHeaders(),
    config,
  });
}

beforeEach(() => {
  stubBrowser();
  seen = [];
  http.defaults.adapter = adapter;
});

/** What reached the transport: the body is still the FormData and it is declared multipart. */
function sentMultipart(config: InternalAxiosRequestConfig) {
  expect(config.data).toBeInstanceOf(FormData);
  expect(String(AxiosHeaders.from(config.headers).get('Content-Type'))).toMatch(/^multipart\/form-data/);
}

describe('files go as multipart (issue 47: the help and storage image uploads sent JSON)', () => {
  it('the help article image and the cold storage image uploads send their file as multipart', async () => {
    const file = new File([new Uint8Array([137, 80, 78, 71])], 'a.png', { type: 'image/png' });
    await uploadHelpImage(file);
    await uploadStorageImage(file);
    expect(seen).toHaveLength(2);
    for (const config of seen) {
      sentMultipart(config);
      expect((config.data as FormData).get('file')).toBeInstanceOf(File);
    }
  });

  it('any FormData through the client goes as multipart, whatever the call declares', async () => {
    const form = new FormData();
    form.append('file', new Blob(['x']), 'x.bin');
    await post('/any/upload', form);
    await put('/any/upload', form, { headers: { 'Content-Type': 'application/json' } });
    seen.forEach(sentMultipart);
  });

  it('every multipart operation of the api that the web calls is called with a FormData', () => {
    const document = JSON.parse(fs.readFileSync(path.resolve(__dirname, '../../openapi.json'), 'utf8')) as {
      paths: Record<string, Record<string, { requestBody?: { content?: Record<string, unknown> } }>>;
    };
    const folder = __dirname;
    const sources = fs
      .readdirSync(folder)
      .filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts') && !name.endsWith('.d.ts'))
      .map((name) => fs.readFileSync(path.join(folder, name), 'utf8'));
    const multipart = Object.entries(document.paths).flatMap(([route, operations]) =>
      Object.values(operations).some((op) => op?.requestBody?.content?.['multipart/form-data']) ? [route] : [],
    );
    expect(multipart.length).toBeGreaterThanOrEqual(5);
    const called: string[] = [];
    for (const route of multipart) {
      const segments = route.split('/').filter((part) => part && !part.startsWith('{'));
      const [kind, last] = segments.slice(-2);
      for (const source of sources) {
        const at = source.search(new RegExp(`${kind}/${last}['\`]`));
        if (at < 0) continue;
        called.push(route);
        // The function around the call (from the export before it to the next export).
        const start = source.lastIndexOf('export', at);
        const end = source.indexOf('\nexport', at);
        const body = source.slice(start, end < 0 ? undefined : end);
        expect(/FormData|upload\(/.test(body), `${route} is called without a FormData`).toBe(true);
      }
    }
    expect(called).toEqual(
      expect.arrayContaining(['/api/base/BaseHelpArticle/uploadImage', '/api/storage/ColdStorage/uploadImage']),
    );
  });
});
