import { createCache, extractStyle, StyleProvider } from '@ant-design/cssinjs';
import Document, { Head, Html, Main, NextScript, type DocumentContext, type DocumentInitialProps } from 'next/document';
import { ServerStyleSheet } from 'styled-components';
import { DEFAULT_LANGUAGE } from '@/i18n/languages';

/**
 * Server render with the styles of both styling libraries in the HTML (antd's css-in-js cache and
 * styled-components' sheet), so the first paint is already styled.
 */
export default class AppDocument extends Document {
  static async getInitialProps(ctx: DocumentContext): Promise<DocumentInitialProps> {
    const cache = createCache();
    const sheet = new ServerStyleSheet();
    const originalRenderPage = ctx.renderPage;
    try {
      ctx.renderPage = () =>
        originalRenderPage({
          enhanceApp: (App) =>
            function StyledApp(props) {
              return sheet.collectStyles(
                <StyleProvider cache={cache}>
                  <App {...props} />
                </StyleProvider>,
              );
            },
        });
      const initialProps = await Document.getInitialProps(ctx);
      const antdStyles = extractStyle(cache, true);
      return {
        ...initialProps,
        styles: (
          <>
            {initialProps.styles}
            {sheet.getStyleElement()}
            {/* Marked as the first of antd's prepended styles (below the css variables' priority of
                -999), so the styles antd writes in the browser come after it: a theme that changes
                there (the branding of the static 404 page) wins over the server's first paint. */}
            <style
              id="antd-ssr"
              data-rc-order="prependQueue"
              data-rc-priority="-1000"
              dangerouslySetInnerHTML={{ __html: antdStyles }}
            />
          </>
        ),
      };
    } finally {
      sheet.seal();
    }
  }

  render() {
    const { pageProps } = this.props.__NEXT_DATA__.props as {
      pageProps?: { _nextI18Next?: { initialLocale?: string } };
    };
    const language = pageProps?._nextI18Next?.initialLocale ?? DEFAULT_LANGUAGE;
    return (
      <Html lang={language}>
        <Head />
        <body>
          <Main />
          <NextScript />
        </body>
      </Html>
    );
  }
}
