/**
 * /admin/analytics: cookie-free analytics of the last 30 days (decision 0032), working without
 * JavaScript: views and quote requests per day as server-drawn SVG bar charts with the same figures in
 * a table, articles ranked by views, by quote requests and by conversion rate, referrer hosts and UTM
 * sources, Core Web Vitals from real visitors (p75 per page type with the thresholds drawn, shares,
 * builds compared: decision 0037), and the CSV of it all.
 */
import type { Route } from './+types/analytics';
import type { ArticleFigures } from '../../../contract/analytics';
import { configFromMatches, pageMeta } from '../../seo/meta';
import { AdminShell } from './AdminShell';
import { BarChart } from './AnalyticsChart';
import { VitalsSection } from './analytics-vitals';
import { useSiteConfig } from '../../components/layout/site-config-context';
import { adminHeaders, requireViewer } from './admin-route';

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(configFromMatches(matches), { title: 'Analytics', description: 'Page views and quote requests of the last 30 days, without cookies.', path: '/admin/analytics', noindex: true });

export const headers = adminHeaders;

export async function loader({ context, request }: Route.LoaderArgs) {
  const viewer = requireViewer(context, request);
  return { viewer, report: await context.staff.analytics() };
}

function percent(rate: number | null): string {
  return rate === null ? '-' : `${(rate * 100).toFixed(1)} %`;
}

function ArticleTable({ id, caption, articles }: { id: string; caption: string; articles: readonly ArticleFigures[] }) {
  return (
    <div className="table-scroll">
      <table className="admin-table" data-testid={id}>
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Article</th>
            <th scope="col">Views</th>
            <th scope="col">Quote requests after reading it</th>
            <th scope="col">Conversion</th>
          </tr>
        </thead>
        <tbody>
          {articles.length === 0 ? (
            <tr>
              <td colSpan={4}>None yet.</td>
            </tr>
          ) : (
            articles.map((article) => (
              <tr key={article.slug}>
                <th scope="row">
                  <a href={`/blog/${encodeURIComponent(article.slug)}`}>{article.slug}</a>
                </th>
                <td>{article.views}</td>
                <td>{article.quoteRequests}</td>
                <td>{percent(article.conversionRate)}</td>
              </tr>
            ))
          )}
        </tbody>
      </table>
    </div>
  );
}

export default function AdminAnalytics({ loaderData }: Route.ComponentProps) {
  const { viewer, report } = loaderData;
  const config = useSiteConfig();
  return (
    <AdminShell viewer={viewer} title="Analytics">
      <p>
        {report.from} to {report.to} (UTC): <strong>{report.totals.views}</strong> page views, <strong>{report.totals.visitors}</strong> daily visitors,{' '}
        <strong>{report.totals.quoteRequests}</strong> quote requests ({report.totals.attributed} with the articles read before them). Counted on the server without
        cookies; visitors sending Global Privacy Control or Do Not Track are counted without a visitor hash and never attributed.
      </p>
      <p>
        <a href="/admin/analytics.csv" download>
          Download these figures (CSV)
        </a>
      </p>
      <section aria-labelledby="analytics-days">
        <h2 id="analytics-days">Per day</h2>
        <div className="analytics-charts">
          <BarChart id="chart-views" title="Page views per day, last 30 days" summary={`${report.totals.views} page views from ${report.from} to ${report.to}; the table below gives each day.`} bars={report.days.map((day) => ({ label: day.day, value: day.views }))} />
          <BarChart
            id="chart-quotes"
            title="Quote requests per day, last 30 days"
            summary={`${report.totals.quoteRequests} quote requests from ${report.from} to ${report.to}; the table below gives each day.`}
            bars={report.days.map((day) => ({ label: day.day, value: day.quoteRequests }))}
          />
        </div>
        <div className="table-scroll">
          <table className="admin-table" data-testid="analytics-days-table">
            <caption>Views, visitors and quote requests per day</caption>
            <thead>
              <tr>
                <th scope="col">Day</th>
                <th scope="col">Views</th>
                <th scope="col">Visitors</th>
                <th scope="col">Quote requests</th>
              </tr>
            </thead>
            <tbody>
              {report.days.map((day) => (
                <tr key={day.day}>
                  <th scope="row">{day.day}</th>
                  <td>{day.views}</td>
                  <td>{day.visitors}</td>
                  <td>{day.quoteRequests}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
      <section aria-labelledby="analytics-articles">
        <h2 id="analytics-articles">Articles</h2>
        <ArticleTable id="top-by-views" caption="Top articles by views" articles={report.topByViews} />
        <ArticleTable id="top-by-quotes" caption="Top articles by quote requests" articles={report.topByQuoteRequests} />
        <ArticleTable id="top-by-conversion" caption="Top articles by conversion rate" articles={report.topByConversion} />
      </section>
      <section aria-labelledby="analytics-sources">
        <h2 id="analytics-sources">Where visitors came from</h2>
        <div className="table-scroll">
          <table className="admin-table" data-testid="top-referrers">
            <caption>Top referrers (host only)</caption>
            <thead>
              <tr>
                <th scope="col">Referrer</th>
                <th scope="col">Views</th>
              </tr>
            </thead>
            <tbody>
              {report.referrers.length === 0 ? (
                <tr>
                  <td colSpan={2}>None yet.</td>
                </tr>
              ) : (
                report.referrers.map((item) => (
                  <tr key={item.host}>
                    <th scope="row">{item.host}</th>
                    <td>{item.views}</td>
                  </tr>
                ))
              )}
            </tbody>
          </table>
        </div>
        <div className="table-scroll">
          <table className="admin-table" data-testid="top-sources">
            <caption>Top UTM sources</caption>
            <thead>
              <tr>
                <th scope="col">utm_source</th>
                <th scope="col">Views</th>
                <th scope="col">Quote requests</th>
              </tr>
            </thead>
            <tbody>
              {report.sources.length === 0 ? (
                <tr>
                  <td colSpan={3}>None yet.</td>
                </tr>
              ) : (
                report.sources.map((item) => (
                  <tr key={item.source}>
                    <th scope="row">{item.source}</th>
                    <td>{item.views}</td>
                    <td>{item.quoteRequests}</td>
                  </tr>
                ))
              )}
            </tbody>
          </table>
        </div>
      </section>
      <VitalsSection vitals={report.vitals} sampleRate={config.rumSampleRate} />
    </AdminShell>
  );
}
